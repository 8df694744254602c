//! mayan-judge: a grader for the Mayan puzzle (NOIP 2011 senior, day 1
//! problem 3). The binary is a thin layer over these modules; domain modules
//! (`sim`, `solver`, `checker`) know nothing of the command line.

pub mod cli;
pub mod commands;
pub mod boards;
pub mod sim;
pub mod solver;
