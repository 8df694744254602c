## `--help` (src/commands/help.rs): the words clap's derive cannot take
## from a catalogue. English `--help` is clap's own, from the doc comments
## of src/cli.rs; these are kept beside them.
help-usage = Usage: {$usage}
help-commands = Commands
help-arguments = Arguments
help-options = Options
help-flag-help = Print help
help-flag-version = Print version
help-about = A grader for the Mayan puzzle (NOIP 2011 senior, day 1 problem 3)
help-about-solve = Print the smallest solution of each puzzle (`-1` when none)
help-about-check = Judge one output: replay its moves and compare with the reference
help-about-grade = Grade submissions on a problem's tests, in a sandbox
help-about-validate = Check test data: inputs obey the rules, answers are the solver's
help-about-show = Replay moves on a puzzle in the terminal, in colour, step by step
help-about-ci = Package CI: validate every package and grade its reference programs
help-about-bench = Measure the solver (against a C++ baseline) and the grader's overhead
help-about-similar = Which programs of a class were copied: pairs ranked by similarity, with the evidence
help-about-gen = Generate new tests (`.in` and `.ans`) from a seed, reproducibly
help-about-export = Write a package in another judge's problem format (Kattis, Polygon, Hydro, DMOJ, CMS, LemonLime)
help-about-stress = Run a submission on random boards until it fails, then shrink the board
help-about-doctor = Check this machine for the sandbox: protections, and what makes timings noisy
help-about-serve = Run an online judge: contestants sign in, submit and see their results live
help-about-help = Print this message or the help of the given subcommand(s)
