//! Compilation as `grade` does it: C++'s standard header `<bits/stdc++.h>`
//! precompiled once by the judge (`src/judge/pch.rs`), used where it
//! fits, and nothing a contestant sees changed by it.

use crate::grade::{Fixture, result_line};
use crate::util::{CASE4_ANSWER, have, target_dir};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The grade fixture with a compile cache out of `/tmp` (a folder every
/// run mounts afresh, where no header could be bound).
struct Class {
    f: Fixture,
    cache: tempfile::TempDir,
}

/// Where the cache is made: the build folder, or `/var/tmp` where that is
/// below `/tmp` or `/dev/shm` (a checkout in `/tmp`), which each run and
/// compilation mounts afresh.
fn cache_base() -> PathBuf {
    let target = target_dir();
    if target.starts_with("/tmp") || target.starts_with("/dev/shm") {
        PathBuf::from("/var/tmp")
    } else {
        target
    }
}

impl Class {
    fn new() -> Class {
        let cache = tempfile::Builder::new()
            .prefix("compile-test-cache-")
            .tempdir_in(cache_base())
            .unwrap();
        Class {
            f: Fixture::new(),
            cache,
        }
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        self.f.write(name, text)
    }

    fn grade(&self, file: &Path, pch: bool) -> assert_cmd::Command {
        let mut cmd = self.f.grade(file);
        cmd.env("MAYAN_JUDGE_CACHE", self.cache.path());
        if !pch {
            cmd.env("MAYAN_JUDGE_PCH", "0");
        }
        cmd
    }
}

/// An accepted C++ program on the fixture's test: `before` first, then the
/// header, then `body` before `main`.
fn accepted(before: &str, body: &str) -> String {
    let answer = CASE4_ANSWER.replace('\n', "\\n");
    format!("{before}#include <bits/stdc++.h>\n{body}\nint main() {{ std::fputs(\"{answer}\", stdout); }}\n")
}

/// The precompiled headers' folders in the fixture's compile cache.
fn headers(f: &Class) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(f.cache.path()) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("pch-"))
                && p.join("bits/stdc++.h.gch").is_file()
        })
        .collect();
    found.sort();
    found
}

/// The one precompiled header in the fixture's cache.
#[track_caller]
fn the_header(f: &Class) -> PathBuf {
    let found = headers(f);
    assert_eq!(found.len(), 1, "one precompiled header expected: {found:?}");
    found[0].join("bits/stdc++.h.gch")
}

/// Grades `file`; the one test's verdict line.
fn verdict(f: &Class, file: &Path, pch: bool) -> String {
    result_line(&f.grade(file, pch).arg("--quiet").output().unwrap())
}

/// The compiler's message `grade` reports for `file` (JSON report).
fn compile_error(f: &Class, file: &Path, pch: bool) -> String {
    let json = f.f.dir.path().join("report.json");
    f.grade(file, pch)
        .arg("--quiet")
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    v["submissions"][0]["compile_error"]
        .as_str()
        .unwrap_or_else(|| panic!("no compile error: {v}"))
        .to_string()
}

#[test]
fn a_program_including_bits_stdcpp_is_compiled_with_the_judges_precompiled_header() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    let plain = f.write("plain.cpp", &accepted("", ""));
    assert!(verdict(&f, &plain, true).contains(" AC "));
    let gch = the_header(&f);
    let mode = std::fs::metadata(&gch).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o444, "the header is read-only");
    // Replaced by one that defines a marker too (the same flags, built
    // from the same system header): a program that needs the marker
    // compiles only if the judge's compilation used that file.
    let source = std::fs::read_to_string(gch.parent().unwrap().parent().unwrap().join("source")).unwrap();
    let header = source.lines().next().unwrap();
    let marker = f.write("marker.h", "#define JUDGE_PCH_MARKER 1\n");
    let built = gch.with_extension("new");
    let status = std::process::Command::new("g++")
        .args(["-O2", "-std=c++17", "-include"])
        .arg(&marker)
        .args(["-x", "c++-header", header, "-o"])
        .arg(&built)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::rename(&built, &gch).unwrap();
    let needs = f.write(
        "needs.cpp",
        &accepted(
            "",
            "#ifndef JUDGE_PCH_MARKER\n#error compiled without the precompiled header\n#endif",
        ),
    );
    let line = verdict(&f, &needs, true);
    assert!(line.contains(" AC "), "{line}");
    // Turned off, the same program is compiled from the system's header.
    let again = f.write(
        "again.cpp",
        &format!("{}// again\n", std::fs::read_to_string(&needs).unwrap()),
    );
    assert!(compile_error(&f, &again, false).contains("compiled without the precompiled header"));
}

#[test]
fn a_compile_error_reads_the_same_with_the_precompiled_header_or_without() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    // Errors inside the library's templates (with their include chains)
    // and in the program; then a macro the header uses, defined first:
    // GCC does not use the precompiled header there, and says nothing.
    let broken = [
        "// a comment\n#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n  vector<int> v; v.push_back(\"x\");\n  map<int, int> m; sort(m.begin(), m.end());\n  undefined_thing = 1;\n}\n",
        "#define _GLIBCXX_DEBUG 1\n#include <bits/stdc++.h>\nusing namespace std;\nint main() { vector<int> v; v.push_back(\"x\"); }\n",
    ];
    for (i, code) in broken.iter().enumerate() {
        let with = compile_error(&f, &f.write(&format!("broken{i}.cpp"), code), true);
        assert!(!headers(&f).is_empty(), "the header was built");
        let without = compile_error(&f, &f.write(&format!("broken{i}_.cpp"), code), false);
        assert_eq!(
            with.replace(&format!("broken{i}.cpp"), "SOURCE"),
            without.replace(&format!("broken{i}_.cpp"), "SOURCE")
        );
        assert!(!with.contains("pch") && !with.contains(".gch"), "{with}");
        assert!(with.contains("In file included from"), "{with}");
    }
}

#[test]
fn a_program_cannot_write_the_precompiled_header() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    assert!(verdict(&f, &f.write("first.cpp", &accepted("", "")), true).contains(" AC "));
    let gch = the_header(&f);
    let before = std::fs::read(&gch).unwrap();
    // The program knows where the header lies, and tries to change it,
    // replace it and add a file beside it; it exits 1 if any worked.
    let dir = gch.parent().unwrap().display().to_string();
    let attack = format!(
        "static bool tries() {{\n  const char *gch = \"{dir}/stdc++.h.gch\";\n  bool any = false;\n  if (FILE *w = std::fopen(gch, \"r+\")) {{ std::fputs(\"x\", w); std::fclose(w); any = true; }}\n  if (std::remove(gch) == 0) any = true;\n  if (FILE *n = std::fopen(\"{dir}/evil.h.gch\", \"w\")) {{ std::fclose(n); any = true; }}\n  return any;\n}}\nstatic bool wrote = tries();\nstatic int stop = wrote ? (std::exit(1), 0) : 0;"
    );
    assert!(verdict(&f, &f.write("attack.cpp", &accepted("", &attack)), true).contains(" AC "));
    assert_eq!(std::fs::read(&gch).unwrap(), before, "the header changed");
    assert!(!Path::new(&dir).join("evil.h.gch").exists());
}

#[test]
fn a_languages_toml_with_other_flags_gets_a_header_built_for_them_or_none() {
    if !have("g++") {
        return;
    }
    let f = Class::new();
    let languages = |compile: &str| {
        let toml = format!(
            "[[language]]\nname = \"cpp\"\nextensions = [\"cpp\"]\ncompile = [{compile}]\nrun = [\"{{exe}}\"]\n"
        );
        std::fs::write(f.f.package().join("languages.toml"), toml).unwrap();
    };
    // A flag that may change which header is found: none built.
    languages("\"g++\", \"-O2\", \"-I\", \"/nonexistent\", \"-o\", \"{exe}\", \"{src}\"");
    assert!(verdict(&f, &f.write("a.cpp", &accepted("", "")), true).contains(" AC "));
    assert_eq!(headers(&f), Vec::<PathBuf>::new());
    // Other flags: a header for them, which the program fits (a C++14
    // program defining what the command says).
    languages("\"g++\", \"-O1\", \"-std=c++14\", \"-DONLINE_JUDGE\", \"-o\", \"{exe}\", \"{src}\", \"-lm\"");
    let fits = "#if __cplusplus != 201402L || !defined(ONLINE_JUDGE)\n#error not the command's flags\n#endif";
    assert!(verdict(&f, &f.write("b.cpp", &accepted("", fits)), true).contains(" AC "));
    the_header(&f);
}
