# The reports (src/report/): the HTML page of a grading (`grade --html`, the
# teacher's report in `serve`, the replay page) and the text report. English
# reads exactly as these reports always have (snapshot tests).

report-near-limit = AC* = accepted with over 80% of the time limit ({$limit} ms) used: a slower or busier machine may make it TLE

## HTML.
html-grading = Grading: {$problem}
html-contest = Contest: {$contest}
html-file-io = File I/O: programs read {$input} and write {$output}.
html-sandbox = Sandbox: {$protections}
html-broken-tests = Broken tests (FAIL for everyone: the test data is wrong):
html-rank = rank
html-contestant = contestant
html-total = total
html-judge-error = judge error
html-judge-error-because = judge error: {$error}
html-grid-ce = CE: compilation error
html-compilation-error = compilation error
html-test = test
html-verdict = verdict
html-time = time
html-memory = memory
html-reason = reason
html-broken-test = the test's data is broken (see the top)
html-their-answer = their answer
html-the-reference = the reference
html-replayed = replayed
html-same-moves-as = the same moves as
html-replayed-there = : replayed there
html-diff = output against the reference answer
html-no-legal-move = (no legal move)
html-move = move {$k}: {$move}
html-before = before: {$blocks} blocks
html-pass = pass {$k}: {$n} cleared
html-after = after: {$blocks} left
html-reference-heading = test {$test}: the reference
html-reference-size = n = {$n}, {$blocks} blocks
html-the-puzzle = the puzzle
html-no-solution = -1: no solution
html-references = The reference solutions of the tests failed

## Text, on a terminal (columns are padded to these words' widths).
text-file-io = file I/O: programs read {$input} and write {$output} in their folder
text-broken-tests = broken tests (FAIL for every submission: the test data is wrong):
text-judge-error = FAIL: judge error: {$error}
text-compilation-failed = CE: compilation failed:
text-test = test
text-verdict = verdict
text-time = time
text-memory = memory
text-reason = reason
text-score = score: {$score} / {$max}
text-summary = summary ({$n} submissions)
text-submission = submission
text-score-column = score
text-verdicts = verdicts

## The ranking of a contest, on a terminal.
ranking-header = {$problem}: {$contestants} contestants, {$tests} tests, time limit {$limit} ms, {$io}
ranking-file-io = file I/O ({$input} and {$output})
ranking-stdio = stdin and stdout
ranking-contest = contest: {$contest}
ranking-rank = rank
ranking-contestant = contestant
ranking-total = total
ranking-fail = FAIL (judge error)
ranking-tests = tests: {$tests}
ranking-broken-tests = broken tests (FAIL for every contestant: the test data is wrong, not the programs):
ranking-not-graded = not graded:
ranking-judge-error = judge error: {$error}
ranking-ce = CE: {$first}

# A counterexample: the smallest board found that a program fails.
cx-heading = The smallest board found that the program fails:
cx-found = n = {$n}, {$blocks} blocks (searched {$boards} boards, {$runs} runs)
cx-board = the board
cx-nothing = (nothing)
cx-input = the input
cx-output = the program's output
cx-smallest = the smallest solution
cx-their-moves = the program's moves
cx-no-legal-move = no legal move to replay
cx-no-solution = -1: no solution
cx-failed-before-check = its text is above (the program's run failed before its output was checked)

## The marks workbook (grade --xlsx, /admin/report.xlsx).
marks-sheet = marks
marks-rank = rank
marks-contestant = contestant
marks-display-name = display name
marks-total = total
marks-not-graded = not graded
