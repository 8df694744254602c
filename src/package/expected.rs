//! What a reference program must score, from the folder it sits in
//! (`reference/<problem>/<expected verdict>/`), and the rule that decides
//! whether a grading of it meets that.

use crate::puzzle::verdict::Verdict;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The expected outcome of a reference program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Expected {
    /// `accepted/`: every test AC.
    Accepted,
    /// `wrong_answer/`: at least one WA, and nothing worse than WA (AC, WA
    /// or PE) on the others.
    WrongAnswer,
    /// `time_limit_exceeded/`: at least one TLE.
    TimeLimitExceeded,
    /// `run_time_error/`: at least one RE.
    RunTimeError,
}

/// The folder names, in the order they are listed.
pub const FOLDERS: [&str; 4] = [
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
];

/// A folder name that is not an expected verdict.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown expected verdict folder `{0}` (expected one of: accepted, wrong_answer, time_limit_exceeded, run_time_error)"
)]
pub struct UnknownExpected(pub String);

impl FromStr for Expected {
    type Err = UnknownExpected;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "accepted" => Expected::Accepted,
            "wrong_answer" => Expected::WrongAnswer,
            "time_limit_exceeded" => Expected::TimeLimitExceeded,
            "run_time_error" => Expected::RunTimeError,
            other => return Err(UnknownExpected(other.to_string())),
        })
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let i = *self as usize;
        f.write_str(FOLDERS[i])
    }
}

impl Expected {
    /// Whether the verdicts of a program's tests meet the expectation;
    /// `Err` says why not. A compilation error (no verdicts) never does.
    pub fn check(self, verdicts: &[Verdict]) -> Result<(), Mismatch> {
        use Verdict::*;
        let count = |v: Verdict| verdicts.iter().filter(|&&x| x == v).count();
        if verdicts.is_empty() {
            return Err(Mismatch::NothingRun);
        }
        if let Some(&v) = verdicts.iter().find(|&&v| v == Fail || v == CompileError) {
            return Err(Mismatch::NeverExpected(v));
        }
        match self {
            Expected::Accepted => match verdicts.iter().find(|&&v| v != Accepted) {
                None => Ok(()),
                Some(&v) => Err(Mismatch::NotAllAccepted(v)),
            },
            Expected::WrongAnswer => {
                if let Some(&v) = verdicts
                    .iter()
                    .find(|v| !matches!(v, Accepted | WrongAnswer | PresentationError | NoOutputFile))
                {
                    Err(Mismatch::WorseThanWrongAnswer(v))
                } else if count(WrongAnswer) == 0 {
                    Err(Mismatch::NoneOf(WrongAnswer))
                } else {
                    Ok(())
                }
            }
            Expected::TimeLimitExceeded if count(TimeLimit) == 0 => Err(Mismatch::NoneOf(TimeLimit)),
            Expected::RunTimeError if count(RuntimeError) == 0 => Err(Mismatch::NoneOf(RuntimeError)),
            _ => Ok(()),
        }
    }
}

/// Why a reference program's verdicts do not meet its folder's expectation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    /// No test ran.
    #[error("no test was run")]
    NothingRun,
    /// A verdict no folder expects (FAIL, CE).
    #[error("got {0}")]
    NeverExpected(Verdict),
    /// An accepted program failed a test.
    #[error("expected every test AC, got {0}")]
    NotAllAccepted(Verdict),
    /// A wrong-answer program did worse than a wrong answer.
    #[error("expected nothing worse than WA, got {0}")]
    WorseThanWrongAnswer(Verdict),
    /// The verdict the folder names never came.
    #[error("expected at least one {0}, got none")]
    NoneOf(Verdict),
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn folders_name_expectations() {
        for f in FOLDERS {
            assert_eq!(f.parse::<Expected>().unwrap().to_string(), f);
        }
        assert!(
            "wrong"
                .parse::<Expected>()
                .unwrap_err()
                .to_string()
                .contains("`wrong`")
        );
    }

    #[test]
    fn the_rules_of_each_folder() {
        assert!(Expected::Accepted.check(&[Accepted, Accepted]).is_ok());
        assert!(Expected::Accepted.check(&[Accepted, WrongAnswer]).is_err());
        assert!(
            Expected::WrongAnswer
                .check(&[Accepted, WrongAnswer, PresentationError])
                .is_ok()
        );
        // Under file I/O a wrong program may also leave no output file
        // (NOF, as PE: nothing worse than a wrong answer).
        assert!(Expected::WrongAnswer.check(&[WrongAnswer, NoOutputFile]).is_ok());
        assert!(Expected::WrongAnswer.check(&[NoOutputFile]).is_err());
        assert!(Expected::WrongAnswer.check(&[Accepted, Accepted]).is_err());
        assert!(Expected::WrongAnswer.check(&[WrongAnswer, TimeLimit]).is_err());
        assert!(
            Expected::TimeLimitExceeded
                .check(&[Accepted, TimeLimit, WrongAnswer])
                .is_ok()
        );
        assert!(Expected::TimeLimitExceeded.check(&[Accepted]).is_err());
        assert!(Expected::RunTimeError.check(&[RuntimeError, Accepted]).is_ok());
        assert!(Expected::RunTimeError.check(&[TimeLimit]).is_err());
        assert!(Expected::Accepted.check(&[Fail]).is_err());
        assert!(Expected::Accepted.check(&[]).is_err());
    }
}
