# What the commands print on a terminal for a person: `serve`'s console,
# `grade`'s progress lines, `show`. (Machine-read lines, such as serve's
# `listening on URL`, stay the same in every language.)

console-serve-start = {$contest}: {$problem} ({$contestants} contestants, database {$db})
console-serve-requeued = {$n} submissions interrupted by the last stop are judged again
console-serve-passwords = generated passwords (shown once; also in {$file}, mode 0600):
console-serve-open = open {$url} in a browser
console-serve-backup = {$db} backed up to {$copy}

console-grade-one = grading {$name}
console-grade-many = grading {$n} programs: compilations and tests {$jobs} at a time
console-grade-test = #{$n} {$test}: {$verdict} ({$ms} ms)

console-show-puzzle = puzzle: n = {$n}, {$blocks} blocks
console-show-smallest = the smallest solution ({$reading}):
console-show-none = no solution: the answer is -1
console-show-file-none = the moves file says -1
console-show-cleared = the board is empty after {$n} moves
console-show-not-solution = not a solution: {$reason}

# serve --dry-run: what starting would change in the contestants.
console-dry-run = The contestants of {$source} against the database {$db}{$new}:
console-dry-run-new = {" "}(new)
console-dry-run-no-file = no contest file

# show's replay on a terminal (puzzle::sim::render's captions; English as
# check --trace writes them).
replay-caption-move = move {$index}: {$move}
replay-caption-before = before:
replay-caption-step = cascade step {$step}: {$cleared} blocks cleared
replay-caption-nothing = nothing cleared
replay-caption-after = after move {$index}: {$blocks} blocks left
