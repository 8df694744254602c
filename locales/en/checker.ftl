# The checker's reasons (src/puzzle/checker.rs `Reason`, data), worded at
# the edge. English must read exactly as the checker's own `Display`
# (JSON, JUnit and the protocols of `check` carry that text): a unit test of
# src/report/words.rs compares them.

reason-correct = correct
reason-empty-output = empty output: expected n moves or -1
reason-not-integer = line {$line}, column {$column}: token `{$token}` is not an integer
reason-bad-token-count = line {$line}, column {$column}: expected 3 integers `x y g`, found {$found} tokens
reason-minus-one-not-alone = line {$line}, column {$column}: `-1` must be the only line
reason-too-many-lines = line {$line}, column {$column}: more than n = {$n} moves
reason-too-few-lines = {$found} moves given, n = {$n} required
reason-illegal-move = move {$index} `{$text}` is illegal: {$why}
reason-emptied-early = the board is empty after move {$index}, but n = {$n} moves are required
reason-blocks-left = after {$moves} moves the board still holds {$blocks} blocks
reason-missed-solution = answer is -1 but a solution exists (it starts with `{$first}`)
reason-not-smallest = the moves clear the board but are not the smallest solution: move {$index} is `{$theirs}`, the smallest solution has `{$expected}`
reason-bad-answer-file = judge error: stored answer: {$detail}
reason-bad-input = judge error: invalid puzzle: {$detail}
reason-answer-disagrees = judge error: the stored answer `{$stored}` disagrees with the solver's `{$solver}`
reason-solver-missed = judge error: the moves `{$moves}` legally clear a board the solver calls impossible
# A reason about a move, placed at that move's line of the output.
reason-at = line {$line}, column {$column}: {$reason}

# Why a move is illegal (the simulator's IllegalMove).
illegal-x = x = {$n} is off the board (0..4)
illegal-y = y = {$n} is off the board (0..6)
illegal-g = g = {$n} must be 1 or -1
illegal-off-edge = x + g = {$n} moves the block off the board
illegal-empty-cell = cell ({$x}, {$y}) is empty
illegal-empty-board = the board is already empty
illegal-noop = cell ({$x}, {$y}) and its neighbour have the same colour (not a move under no-noop)

# How a run ended, when its output was not judged (the judge's words,
# recognised at the edge): the numbers as the judge gave them.
run-cpu-over = CPU time over {$limit} ms
run-cpu-over-measured = CPU time over {$limit} ms ({$time} ms)
run-wall-over = wall time over the limit (CPU {$time} ms): sleeping or blocked?
run-exit-code = exit code {$code}
run-killed = killed by {$signal}
run-memory-over = memory over {$mib} MiB
run-output-over = output over {$kib} KiB (or a file over its limit)
run-no-output-file = no {$file} was written (file I/O: the output is judged from that file)
run-stdout-instead = ; it wrote to stdout instead
run-again = {$reason} [run {$runs} times: TLE close to the limit before ({$times})]
run-judge-error = judge error: {$detail}
# An empty output from a program whose source opens a `.in` file.
run-file-io-hint = ; its source opens {$file}: it reads and writes files (NOIP style), so grade it with --file-io {$stem} (or [io] in problem.toml)
# A test no submission can be judged on, and why.
broken-test = {$test}: {$reason}
run-broken-test = the test's data is broken (see above)
