//! The Kattis / ICPC problem package format, in the version problemtools'
//! `verifyproblem` checks in full (the one without `problem_format_version`,
//! which problemtools calls "legacy"):
//!
//! ```text
//! <id>/problem.yaml                       name, uuid, `validation: custom`, memory and output limits
//! <id>/.timelimit                         the package's time limit in seconds (read by DOMjudge)
//! <id>/problem_statement/problem.en.tex   statement.md converted (its sample section left out:
//!                                         the format typesets data/sample itself)
//! <id>/data/{sample,secret}/NAME.{in,ans} the tests, other groups flattened into secret/
//! <id>/input_validators/<name>/           validate.py (RULES.md input, the package's max_n)
//! <id>/output_validators/<name>/          validate.py (the checker, literal rules)
//! <id>/submissions/<verdict>/             the reference programs in C, C++, Rust and Python 3
//! ```
//!
//! The repository's checker is a Rust crate that problemtools cannot build,
//! so the output validator is a self-contained Python 3 script
//! (`kattis_output_validator.py`, embedded in the binary) that replays the
//! moves in its own simulator; `tests/integration/export.rs` keeps its
//! verdicts equal to `mayan-judge check --protocol kattis`. Both validators
//! are programs of the `build`/`run` form (a `build` script that makes `run`
//! from `validate.py`), so they run on `python3` wherever the judge runs them.
//!
//! Inputs and answers are written in the canonical layout (`Puzzle::to_text`,
//! one move a line): whitespace carries no meaning under RULES.md, and the
//! input validator can then be strict about the format, as Kattis expects.

use super::checkers::{PythonProtocol, python_checker};
use super::data::{self, checked_tests, reference_programs_of};
use super::{
    ExportError, PackageFormat, Summary, is_problem_id, latex, safe_file_name, write, write_executable,
    yaml_string,
};
use crate::package::Problem;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;
use std::str::FromStr;

pub use super::data::{STATEMENT_FILE, test_destination};
/// The input validator, before the package's `max_n` is written into it.
pub const INPUT_VALIDATOR: &str = include_str!("kattis_input_validator.py");
/// The line of [`INPUT_VALIDATOR`] that carries `max_n`.
const MAX_N_LINE: &str = "\nMAX_N = 5  #";
/// The `build` script of both validators.
const BUILD: &str = r#"#!/bin/sh
# Build step of a Kattis program: the validator is one Python 3 script
# (standard library only). `run` starts it without site-packages (-S): it needs
# none, and loading them can take longer than the check itself.
set -e
cat > run <<'END'
#!/bin/sh
exec python3 -S "$(dirname "$0")/validate.py" "$@"
END
chmod +x run
"#;

/// Licenses the format knows (`license` in `problem.yaml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum License {
    /// `unknown` (what problemtools assumes when none is given; it warns).
    Unknown,
    /// `public domain` (no rights owner allowed).
    PublicDomain,
    /// `cc0`.
    Cc0,
    /// `cc by`.
    CcBy,
    /// `cc by-sa`.
    CcBySa,
    /// `educational`.
    Educational,
    /// `permission`.
    Permission,
}

const LICENSES: [(License, &str); 7] = [
    (License::Unknown, "unknown"),
    (License::PublicDomain, "public domain"),
    (License::Cc0, "cc0"),
    (License::CcBy, "cc by"),
    (License::CcBySa, "cc by-sa"),
    (License::Educational, "educational"),
    (License::Permission, "permission"),
];

impl fmt::Display for License {
    /// The value as `problem.yaml` spells it (`cc by-sa`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = LICENSES
            .iter()
            .find(|(l, _)| l == self)
            .map_or("unknown", |(_, n)| n);
        f.write_str(name)
    }
}

/// A license the format does not know.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown license `{0}`: expected unknown, public-domain, cc0, cc-by, cc-by-sa, educational or permission"
)]
pub struct UnknownLicense(String);

impl FromStr for License {
    type Err = UnknownLicense;
    /// `cc-by-sa` or `cc by-sa`, `public-domain` or `public domain`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        LICENSES
            .iter()
            .find(|(_, name)| *name == wanted || name.replace(' ', "-") == wanted)
            .map(|(l, _)| *l)
            .ok_or_else(|| UnknownLicense(s.to_string()))
    }
}

/// The Kattis format, with the metadata a package does not hold.
#[derive(Clone, Debug, Default)]
pub struct Kattis {
    /// `source`: where the problem comes from (e.g. `NOIP 2011`).
    pub source: Option<String>,
    /// `license`.
    pub license: Option<License>,
    /// `rights_owner`.
    pub rights_owner: Option<String>,
}

impl PackageFormat for Kattis {
    fn name(&self) -> &'static str {
        "kattis"
    }

    fn write(&self, problem: &Problem, dir: &Path, name: &str) -> Result<Summary, ExportError> {
        let config = &problem.config;
        let unsupported = |message: String| ExportError::Unsupported {
            package: config.name.clone(),
            message,
        };
        match (self.license, &self.rights_owner, &self.source) {
            (Some(License::PublicDomain), Some(_), _) => {
                return Err(unsupported(
                    "a problem in the public domain has no rights owner (drop --rights-owner)".into(),
                ));
            }
            (Some(l), None, None) if !matches!(l, License::Unknown | License::PublicDomain) => {
                return Err(unsupported(format!(
                    "license `{l}` needs a rights owner or a source (--rights-owner or --source)"
                )));
            }
            _ => {}
        }
        let statement = data::statement(problem, "Kattis")?;
        let mut summary = Summary {
            format: self.name(),
            ..Summary::default()
        };
        if !is_problem_id(name) {
            let suggestion: String = config
                .name
                .to_ascii_lowercase()
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect();
            summary.notes.push(format!(
                "Kattis takes the problem id from the folder name, and `{name}` is not one \
                 (only a-z and 0-9): rename the folder (e.g. to `{suggestion}`)"
            ));
        }
        write_tests(problem, dir, &mut summary)?;
        write(
            &dir.join("problem.yaml"),
            self.problem_yaml(problem, &mut summary),
        )?;
        write(
            &dir.join(".timelimit"),
            format!("{}\n", config.limits.time_ms as f64 / 1000.0),
        )?;
        write(
            &dir.join("problem_statement/problem.en.tex"),
            statement_tex(config.title.english(), &statement),
        )?;
        let validator_dir = safe_file_name(&config.name);
        let output = dir.join("output_validators").join(&validator_dir);
        write_executable(&output.join("build"), BUILD)?;
        write_executable(
            &output.join("validate.py"),
            python_checker(PythonProtocol::Kattis, false),
        )?;
        let input = dir.join("input_validators").join(&validator_dir);
        write_executable(&input.join("build"), BUILD)?;
        write_executable(&input.join("validate.py"), input_validator(config.input.max_n))?;
        write_submissions(problem, dir, &mut summary)?;
        Ok(summary)
    }
}

impl Kattis {
    /// `problem.yaml`: only what the format needs and the package knows.
    fn problem_yaml(&self, problem: &Problem, summary: &mut Summary) -> String {
        let config = &problem.config;
        let mut y = String::from(
            "# Kattis problem package, written by `mayan-judge export --format kattis` from problem.toml.\n",
        );
        y.push_str(&format!("name: {}\n", yaml_string(config.title.english())));
        if let Some(source) = &self.source {
            y.push_str(&format!("source: {}\n", yaml_string(source)));
        }
        if let Some(license) = self.license {
            y.push_str(&format!("license: {}\n", yaml_string(&license.to_string())));
        }
        if let Some(owner) = &self.rights_owner {
            y.push_str(&format!("rights_owner: {}\n", yaml_string(owner)));
        }
        y.push_str(&format!("uuid: {}\n", uuid(&config.name)));
        y.push_str("validation: custom\n");
        if problem.checker.accept_any {
            y.push_str("validator_flags: any  # [checker] accept = \"any\": any valid solution\n");
        }
        let output_mib = config.limits.output_kib.div_ceil(1024).max(1);
        if config.limits.output_kib != output_mib * 1024 {
            summary.notes.push(format!(
                "output limit {} KiB rounded up to {output_mib} MiB (Kattis counts whole MiB)",
                config.limits.output_kib
            ));
        }
        y.push_str(&format!(
            "limits:\n\
             \x20 # No time limit here: Kattis sets it from the accepted submissions' running\n\
             \x20 # times (time_multiplier, default 5) and checks the time_limit_exceeded ones\n\
             \x20 # against it (time_safety_margin, default 2). The package's limit, {} ms, is in\n\
             \x20 # .timelimit (DOMjudge reads it; verifyproblem takes it with -t).\n\
             \x20 memory: {}\n\
             \x20 output: {output_mib}\n",
            config.limits.time_ms, config.limits.memory_mib
        ));
        summary.notes.push(format!(
            "the time limit ({} ms) is in .timelimit: Kattis itself derives one from the accepted submissions",
            config.limits.time_ms
        ));
        summary.notes.push(
            "scoring is not exported: a Kattis pass-fail problem accepts a submission only when every test passes"
                .into(),
        );
        y
    }
}

/// Writes `data/sample` and `data/secret` (see [`checked_tests`]).
fn write_tests(problem: &Problem, dir: &Path, summary: &mut Summary) -> Result<(), ExportError> {
    let tests = checked_tests(problem)?;
    for t in &tests.tests {
        write(&dir.join(format!("data/{}/{}.in", t.group, t.file)), &t.input)?;
        write(&dir.join(format!("data/{}/{}.ans", t.group, t.file)), &t.answer)?;
        summary.count_test(t.group);
    }
    if tests.rewritten > 0 {
        summary.notes.push(format!(
            "{} test files rewritten in the canonical layout (whitespace only; \
             the input validator accepts no other)",
            tests.rewritten
        ));
    }
    Ok(())
}

/// The file extension problemtools detects the language by, for a program
/// of one of the package's languages; `None` for a language it lacks.
fn kattis_extension(language: &str, extension: Option<&str>) -> Option<&'static str> {
    match (language, extension) {
        ("c", _) => Some("c"),
        ("cpp", Some("cc")) => Some("cc"),
        ("cpp", Some("cxx")) => Some("cxx"),
        ("cpp", Some("c++")) => Some("c++"),
        ("cpp", _) => Some("cpp"),
        ("rust", _) => Some("rs"),
        ("python", _) => Some("py"),
        _ => None,
    }
}

/// problemtools reads a `.py` file as Python 2 when its first line is a
/// `#!...python2` line, and as Python 3 otherwise; the judge runs every `.py`
/// with python3, so such a line becomes `#!/usr/bin/env python3`.
fn as_python3(source: Vec<u8>) -> Vec<u8> {
    let first_end = source.iter().position(|&b| b == b'\n').unwrap_or(source.len());
    let first = &source[..first_end];
    if first.starts_with(b"#!") && first.windows(7).any(|w| w == b"python2") {
        let mut out = b"#!/usr/bin/env python3".to_vec();
        out.extend_from_slice(&source[first_end..]);
        out
    } else {
        source
    }
}

/// Copies the reference programs (following symbolic links) into
/// `submissions/<expected verdict>/`, in the languages problemtools knows.
fn write_submissions(problem: &Problem, dir: &Path, summary: &mut Summary) -> Result<(), ExportError> {
    let (programs, others) = reference_programs_of(problem)?;
    let mut names: BTreeSet<(&str, String)> = BTreeSet::new();
    for program in &programs {
        let extension = program.path.extension().and_then(|e| e.to_str());
        let Some(kattis_ext) = kattis_extension(&program.language, extension) else {
            summary.notes.push(format!(
                "left out {}: not in a language the Kattis tools know (C, C++, Rust, Python 3)",
                program.path.display()
            ));
            continue;
        };
        let stem = program.path.file_stem().unwrap_or_default().to_string_lossy();
        let file = format!("{}.{kattis_ext}", safe_file_name(&stem));
        if !names.insert((program.folder, file.clone())) {
            return Err(ExportError::Unsupported {
                package: problem.config.name.clone(),
                message: format!(
                    "two reference programs would both be submissions/{}/{file} ({}): rename one",
                    program.folder,
                    program.path.display()
                ),
            });
        }
        let mut source = std::fs::read(&program.path).map_err(ExportError::io(&program.path))?;
        if kattis_ext == "py" {
            source = as_python3(source);
        }
        write(&dir.join("submissions").join(program.folder).join(&file), source)?;
    }
    for folder in crate::package::expected::FOLDERS {
        let count = names.iter().filter(|(f, _)| *f == folder).count();
        if count > 0 {
            summary.submissions.push((folder.to_string(), count));
        }
    }
    for other in others {
        summary.notes.push(format!(
            "left out {}: not an expected-verdict folder",
            other.display()
        ));
    }
    Ok(())
}

/// The input validator with the package's `max_n`.
pub fn input_validator(max_n: u32) -> String {
    INPUT_VALIDATOR.replacen(MAX_N_LINE, &format!("\nMAX_N = {max_n}  #"), 1)
}

/// `problem.en.tex`: the title, then the statement converted, without its
/// sample section (the format typesets the tests in data/sample itself).
pub fn statement_tex(title: &str, markdown: &str) -> String {
    let escaped = latex::escape(title);
    let mut tex = String::new();
    if escaped != title {
        // What problemtools takes as the name when the title needs escaping.
        tex.push_str(&format!("%% plainproblemname: {title}\n"));
    }
    tex.push_str(&format!("\\problemname{{{escaped}}}\n\n"));
    tex.push_str(&latex::convert(markdown, |heading| {
        let h = heading.to_ascii_lowercase();
        h.starts_with("sample") || h.starts_with("example")
    }));
    tex.push('\n');
    tex
}

/// A stable UUID for the problem (the same name gives the same id, so a
/// re-export updates the same problem on a judge): version 8 (RFC 9562),
/// from SHA-256 of the name.
pub fn uuid(name: &str) -> String {
    let hash = Sha256::digest(format!("mayan-judge kattis export\0{name}").as_bytes());
    let mut b = [0u8; 16];
    b.copy_from_slice(&hash[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn licenses_parse_in_both_spellings() {
        assert_eq!("cc-by-sa".parse::<License>().unwrap(), License::CcBySa);
        assert_eq!("cc by-sa".parse::<License>().unwrap(), License::CcBySa);
        assert_eq!("Public Domain".parse::<License>().unwrap(), License::PublicDomain);
        assert_eq!(License::CcBySa.to_string(), "cc by-sa");
        assert!(
            "gpl"
                .parse::<License>()
                .unwrap_err()
                .to_string()
                .contains("`gpl`")
        );
    }

    #[test]
    fn the_input_validator_gets_the_packages_max_n() {
        assert!(INPUT_VALIDATOR.contains(MAX_N_LINE), "placeholder line present");
        let v = input_validator(7);
        assert!(v.contains("\nMAX_N = 7  #") && !v.contains(MAX_N_LINE));
    }

    #[test]
    fn python2_shebangs_become_python3() {
        assert_eq!(
            as_python3(b"#!/usr/bin/python2\nprint(1)\n".to_vec()),
            b"#!/usr/bin/env python3\nprint(1)\n"
        );
        let plain = b"# a comment\nprint(1)\n".to_vec();
        assert_eq!(as_python3(plain.clone()), plain);
    }

    #[test]
    fn the_uuid_is_stable_and_well_formed() {
        let a = uuid("mayan");
        assert_eq!(a, uuid("mayan"));
        assert_ne!(a, uuid("mayan-literal"));
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "8", "version 8");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"), "RFC variant");
    }

    #[test]
    fn problem_ids_are_lowercase_letters_and_digits() {
        assert!(is_problem_id("mayan"));
        assert!(is_problem_id("mayan2"));
        assert!(!is_problem_id("mayan-literal"));
        assert!(!is_problem_id("Mayan"));
        assert!(!is_problem_id(""));
    }

    #[test]
    fn the_statement_has_the_title_and_no_sample_section() {
        let tex = statement_tex(
            "A & B",
            "# A\n\nText.\n\n## Sample\n```\n1\n```\n\n## Limits\n3 s.\n",
        );
        assert!(
            tex.starts_with("%% plainproblemname: A & B\n\\problemname{A \\& B}\n"),
            "{tex}"
        );
        assert!(
            tex.contains("\\section*{Limits}") && !tex.contains("verbatim"),
            "{tex}"
        );
    }
}
