//! The puzzle: the rules of `RULES.md` and everything that follows from them
//! alone. The simulator (`sim`) is the only implementation of the rules; the
//! solver (the lexicographically smallest solution), the checker (one output
//! judged, move by move), the verdict type, and the board generators all
//! build on it. Nothing here runs a program, reads a package or knows the
//! command line.

pub mod boards;
pub mod checker;
pub mod generate;
pub mod sim;
pub mod solver;
pub mod verdict;
