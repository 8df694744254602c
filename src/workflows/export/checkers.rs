//! The checkers the exports carry, written from two templates that are
//! separate implementations of RULES.md (literal reading), kept equal to
//! `mayan-judge check` by `tests/integration/`:
//!
//! - `checker.py`: Python 3, standard library only, in three calling
//!   conventions (Kattis output validator, testlib, CMS comparator), chosen
//!   by its `PROTOCOL` line, and whatever the line a DMOJ checker module
//!   (its `check()`, called in DMOJ's judge process);
//! - `testlib_checker.cpp`: C++11 against `testlib.h`, which the judges that
//!   take testlib checkers (Polygon, Hydro, LOJ, UOJ) supply themselves.
//!
//! Both take the package's `accept` mode from a constant written into them.

/// The Python checker as written in the repository (Kattis protocol).
pub const PYTHON_CHECKER: &str = include_str!("checker.py");
/// The C++ testlib checker as written in the repository (`accept = "smallest"`).
pub const TESTLIB_CHECKER: &str = include_str!("testlib_checker.cpp");

const PY_PROTOCOL_LINE: &str = "\nPROTOCOL = \"kattis\"  #";
const PY_ACCEPT_LINE: &str = "\nACCEPT_ANY = False  #";
const CPP_ACCEPT_LINE: &str = "\nconst bool ACCEPT_ANY = false;  // [checker] accept = \"smallest\"";

/// How the Python checker is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PythonProtocol {
    /// `validate.py INPUT ANSWER FEEDBACK_DIR [any] < output`: exit 42/43/1.
    Kattis,
    /// `checker.py INPUT OUTPUT ANSWER`: testlib's words and exit codes.
    Testlib,
    /// `checker INPUT ANSWER OUTPUT`: score on stdout, `translate:` on stderr.
    Cms,
}

/// The Python checker for `protocol`, accepting any valid solution when
/// `accept_any` (under Kattis the flag `any` does the same).
pub fn python_checker(protocol: PythonProtocol, accept_any: bool) -> String {
    let name = match protocol {
        PythonProtocol::Kattis => "kattis",
        PythonProtocol::Testlib => "testlib",
        PythonProtocol::Cms => "cms",
    };
    let mut s = PYTHON_CHECKER.replacen(PY_PROTOCOL_LINE, &format!("\nPROTOCOL = \"{name}\"  #"), 1);
    if accept_any {
        s = s.replacen(PY_ACCEPT_LINE, "\nACCEPT_ANY = True  #", 1);
    }
    s
}

/// The C++ testlib checker, accepting any valid solution when `accept_any`.
pub fn testlib_checker(accept_any: bool) -> String {
    if accept_any {
        TESTLIB_CHECKER.replacen(
            CPP_ACCEPT_LINE,
            "\nconst bool ACCEPT_ANY = true;  // [checker] accept = \"any\"",
            1,
        )
    } else {
        TESTLIB_CHECKER.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_templates_hold_the_lines_the_export_rewrites() {
        for line in [PY_PROTOCOL_LINE, PY_ACCEPT_LINE] {
            assert_eq!(PYTHON_CHECKER.matches(line).count(), 1, "{line}");
        }
        assert_eq!(TESTLIB_CHECKER.matches(CPP_ACCEPT_LINE).count(), 1);
        let cms = python_checker(PythonProtocol::Cms, true);
        assert!(cms.contains("\nPROTOCOL = \"cms\"  #") && cms.contains("\nACCEPT_ANY = True  #"));
        assert!(testlib_checker(true).contains("\nconst bool ACCEPT_ANY = true;"));
        assert_eq!(python_checker(PythonProtocol::Kattis, false), PYTHON_CHECKER);
    }
}
