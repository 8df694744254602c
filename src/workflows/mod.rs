//! What a problem setter runs over a whole package: `validate` (every input
//! and answer against the rules and the solver), `ci` (validation plus every
//! reference program graded against the verdict its folder promises),
//! `export` (the package in another judge's format); and what a teacher
//! grades, `contest` (a folder of contestants and their programs, or a zip
//! archive of their final programs in the same layouts).

pub mod ci;
pub mod contest;
pub mod export;
pub mod validate;
