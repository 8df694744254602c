//! mayan-judge: a grader for the Mayan puzzle (NOIP 2011 senior, day 1
//! problem 3). The binary is a thin layer over these modules; domain modules
//! (`sim`, `solver`, `checker`) know nothing of the command line.

// Board code indexes several per-column arrays by the same x; iterator
// chains over zipped arrays would hide the geometry.
#![allow(clippy::needless_range_loop)]

pub mod boards;
pub mod checker;
pub mod ci;
pub mod cli;
pub mod commands;
pub mod export;
pub mod generate;
pub mod grading;
pub mod package;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod sim;
pub mod solver;
pub mod stress;
pub mod submission;
pub mod validate;
pub mod verdict;
