//! The integration tests, one binary (one link, one run): a module for each
//! command or part, and `util` for what they share (the `mayan-judge`
//! command, the tools a test needs, common boards and files).
//!
//! With `MAYAN_JUDGE_REQUIRE_TOOLS=1` (set by `.ci/run`) a test that lacks a
//! tool (a compiler, Chromium, problemtools, the official data) fails
//! instead of skipping; see `util::tool`.

mod serve_util;
mod util;

// One module per part, in name order. Cargo.toml says `autotests = false`:
// a file placed directly in tests/ is not built, so a new part is declared
// here.

mod attacks;
mod bench;
mod bundled;
mod chinese_cli;
mod ci;
mod compile;
mod contest;
mod core;
mod doctor;
mod excel;
mod export;
mod generate;
mod grade;
mod html_chromium;
mod interop;
mod killed;
mod launcher;
mod names;
mod newcomer;
mod properties;
mod protocols;
mod readme;
mod rootless;
mod rules;
mod sandbox_hostile;
mod serve;
mod serve_access;
mod serve_browser;
mod serve_class;
mod serve_counterexample;
mod serve_faults;
mod serve_hostile;
mod serve_load;
mod serve_teacher;
mod similar;
mod similar_deep;
mod similar_hostile;
mod stress;
mod validate;
