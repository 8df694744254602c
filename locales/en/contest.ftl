# A contest folder (`grade --contest`, src/workflows/contest.rs): its
# layout, and why a contestant has nothing graded (judge::reason::NoProgram,
# data). English reads exactly as NoProgram's `Display` (a unit test of
# src/report/words.rs compares them).

no-program-missing = no program: no {$stem}.<ext> in {$folder}/ or {$folder}/{$stem}/
no-program-missing-near = no program: no {$stem}.<ext> in {$folder}/ or {$folder}/{$stem}/ (found {$near}: the file must be named {$stem}.<ext>)
no-program-several = {$n} programs: {$files}; keep one
no-program-link = {$file} is a symbolic link (not followed)
no-program-no-submission = no submission
# In a table's cell, where the whole row would be.
no-program-short = no program
no-program-several-short = {$n} programs

layout-plain = one folder per contestant
layout-lemonlime = LemonLime layout: source/<contestant>/
layout-arbiter = Arbiter layout: players/<contestant>/
# The contest folder graded, with its layout.
contest-folder = {$dir} ({$layout})
# A contestant and a note about them (why nothing was graded).
contestant-note = {$name}: {$why}
# A submission's verdict counts when it did not run (judge's fault), and
# how a list's items are separated.
counts-judge-error = FAIL (judge error)
list-separator = {", "}

# What reading the contestants again changes (src/server/roster.rs), one
# change a line; passwords are never shown.
roster-add = add {$name}{$generated}
roster-add-as = add {$name} as "{$display}"{$generated}
roster-generated = {" "}(password generated)
roster-display = {$name}: display name "{$old}" -> "{$new}"
roster-password = {$name}: new password (from the file)
roster-keep = keep {$name} (no longer in the file: nobody is removed; disqualify to take out of the ranking)
roster-no-change = no change to the contestants

# The sandbox's protections, one phrase each (src/judge/sandbox
# `Protections`; English reports show the sandbox's own line instead).
sandbox-isolation = private root and namespaces
sandbox-uid-per-run = a uid per run
sandbox-seccomp = seccomp deny list
sandbox-landlock = Landlock file rules
sandbox-cgroup = cgroup limits
sandbox-drop = runs as an unprivileged user
sandbox-namespaces = network and IPC namespaces
sandbox-rlimits = rlimits
sandbox-no-process-limit = {" "}[process count NOT limited: root without a pids cgroup]

# Why the judge could not grade a submission (judge::reason::JudgeProblem).
judge-missing-tool = {$what} `{$name}` for {$language} is not installed (not found in PATH)
judge-tool-compiler = compiler
judge-tool-interpreter = interpreter
