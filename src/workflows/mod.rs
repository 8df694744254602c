//! What a problem setter runs over a whole package: `validate` (every input
//! and answer against the rules and the solver), `ci` (validation plus every
//! reference program graded against the verdict its folder promises) and
//! `export` (the package in another judge's format).

pub mod ci;
pub mod export;
pub mod validate;
