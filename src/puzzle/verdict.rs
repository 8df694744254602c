//! Verdicts, shared by the checker (which gives AC, WA, PE and FAIL) and the
//! grader (which adds what running a program can go wrong with).

use serde::Serialize;
use std::fmt;

/// The outcome of one test (or, for `CE`, of a whole submission).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub enum Verdict {
    /// Accepted.
    #[serde(rename = "AC")]
    Accepted,
    /// Wrong answer.
    #[serde(rename = "WA")]
    WrongAnswer,
    /// Presentation error: the output is not in the answer format.
    #[serde(rename = "PE")]
    PresentationError,
    /// No output file (找不到输出文件): under file I/O, the program ended
    /// without writing its output file; distinct from PE, where a file
    /// exists but is not in the answer format (LemonLime's and every NOIP
    /// judge's outcome of its own).
    #[serde(rename = "NOF")]
    NoOutputFile,
    /// Time limit exceeded.
    #[serde(rename = "TLE")]
    TimeLimit,
    /// Memory limit exceeded.
    #[serde(rename = "MLE")]
    MemoryLimit,
    /// Output limit exceeded.
    #[serde(rename = "OLE")]
    OutputLimit,
    /// Run-time error (signal or nonzero exit).
    #[serde(rename = "RE")]
    RuntimeError,
    /// Compilation error (the whole submission).
    #[serde(rename = "CE")]
    CompileError,
    /// The judge failed; never the contestant's fault.
    #[serde(rename = "FAIL")]
    Fail,
}

impl Verdict {
    /// The short code (`AC`, `WA`, ...).
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::NoOutputFile => "NOF",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::OutputLimit => "OLE",
            Verdict::RuntimeError => "RE",
            Verdict::CompileError => "CE",
            Verdict::Fail => "FAIL",
        }
    }

    /// The exit code of `check` under the testlib protocol: 0 AC, 1 WA,
    /// 2 PE, 3 FAIL (other verdicts do not come out of a checker). testlib
    /// has no code of its own for a missing output file: it quits with PE
    /// (`Output file not found`), and so does `check`.
    pub fn testlib_exit_code(self) -> i32 {
        match self {
            Verdict::Accepted => 0,
            Verdict::WrongAnswer => 1,
            Verdict::PresentationError | Verdict::NoOutputFile => 2,
            _ => 3,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
