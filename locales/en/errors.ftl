## The commands' errors on the terminal (src/main.rs, src/commands/).
error-line = mayan-judge: error: {$error}
error-cause = {$error}: {$cause}
error-note-trusted = note: --trusted: running without {$list}
io-not-found = no such file or folder
io-permission-denied = permission denied
io-is-a-folder = is a folder
io-not-a-folder = not a folder
io-already-exists = already exists
error-loading-package = loading the package {$path}
error-reading-cwd = reading the current folder
error-bundled-package = writing out the bundled package
error-reading = reading {$path}
error-writing = writing {$path}
error-reading-stdin = reading standard input
error-reading-tests = reading the tests
error-reading-package-tests = reading the package's tests
error-no-sources = {$path}: no source files in this folder
error-no-such-path = {$path}: no such file or folder
error-tests-pattern = --tests `{$pattern}`
error-tests-match-none = --tests `{$pattern}` matches no test of {$problem}
error-reading-contest = reading the contest folder {$path}
error-no-contestant-folders = {$path}: no contestant folders (expected one sub-folder per contestant, directly or in source/ or players/)
error-sandbox-refused = this machine cannot isolate untrusted programs; missing: {$list}. `mayan-judge doctor` checks every protection and names the command that gives it; pass --trusted to run programs you wrote yourself
error-unknown-language = --lang {$name}: unknown language (known: {$known})
error-undetected-language = {$path}: cannot tell the language from the extension; use --lang ({$known})
error-check-missing = missing {$what} (see `mayan-judge check --help` for the {$protocol} protocol)
error-check-too-many = testlib takes INPUT OUTPUT [ANSWER [RESULT_FILE [-appes]]], got {$n} files
error-check-appes = -appes needs a RESULT_FILE before it
error-check-full-score = FULL_SCORE is not a whole number
error-contest-languages = checking the languages of the contest against the package {$path}

## A problem package's and a contest file's errors (src/commands/mod.rs):
## English prints the errors' own words; these are for other languages.
error-at-line = {$file}, line {$line}: {$what}
error-toml = not valid TOML: {$reason}
error-package-invalid = a value of the problem is wrong: {$message}
error-package-no-problem-file = {$path}: empty package (no problem.toml)
error-package-no-tests = {$path}: the package has no tests (expected NAME.in with NAME.ans or NAME.out)
error-tests-no-folder = no tests: the tests folder does not exist
error-tests-none = no tests in this folder (expected NAME.in with NAME.ans or NAME.out)
error-tests-unreadable = cannot read: {$why}
error-tests-no-answer = input without an answer (expected {$ans} or {$out})
error-tests-two-answers = two answers for one input: {$ans} and {$out} (keep one)
error-tests-no-input = answer without an input
