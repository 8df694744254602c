//! mayan-judge: a grader for the Mayan puzzle (NOIP 2011 senior, day 1
//! problem 3). The binary is a thin layer over these modules, one folder per
//! layer, each importing only the layers above it in this list:
//!
//! - [`puzzle`]: the rules (simulator, solver, checker, verdicts, boards);
//! - [`package`]: what a problem is (`problem.toml`, tests, languages);
//! - [`judge`]: running untrusted programs and judging them;
//! - [`workflows`]: validation, package CI and export;
//! - [`report`]: one file per output format;
//! - [`commands`] and [`cli`]: the command line, and nothing below knows it;
//! - [`server`]: the online judge (`serve`), a front end beside `commands`;
//! - [`similarity`]: which programs were copied, a domain of its own (it
//!   imports none of the others).
//!
//! `docs/ARCHITECTURE.md` maps it on one page.

// Board code indexes several per-column arrays by the same x; iterator
// chains over zipped arrays would hide the geometry.
#![allow(clippy::needless_range_loop)]

pub mod cli;
pub mod commands;
pub mod i18n;
pub mod judge;
pub mod package;
pub mod puzzle;
pub mod report;
pub mod server;
pub mod similarity;
pub mod workflows;

#[cfg(test)]
mod testing;
