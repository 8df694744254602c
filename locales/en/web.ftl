# The online judge's pages (src/server/templates/), every page's frame first.

## The frame: navigation, clock, language switch.
nav-statement = Statement
nav-submit = Submit
nav-submissions = Submissions
nav-ranking = Ranking
nav-clarifications = Clarifications
nav-teacher = Teacher
nav-every-submission = Every submission
nav-your-submissions = Your submissions
nav-sign-out = Sign out
clock-zone = times in {$zone}
clock-open = Open practice
clock-starts = Starts in {$left}
clock-ends = Ends in {$left}
clock-ends-frozen = Ends in {$left} (ranking frozen)
clock-over = The contest is over

## Why a page cannot be shown (error.html), headed by its status.
status-400 = Bad Request
status-401 = Unauthorized
status-403 = Forbidden
status-404 = Not Found
status-413 = Payload Too Large
status-429 = Too Many Requests
status-503 = Service Unavailable
fail-sign-in = Sign in first.
fail-not-found = No such page.
fail-storage = The judge could not store this, so nothing was stored: {$error}. Tell the teacher, then try again.
fail-too-many-requests = Too many requests: wait a few seconds.
fail-teacher-only = Only the teacher may open this page.
fail-form-expired = This form has expired (its security token does not match): reload the page and try again.
error-back = Back

## Words several pages share.
none-yet = None yet.
cancel = Cancel
back-to-teacher = Back to the teacher's page
col-rank = rank
col-contestant = contestant
col-score = score
col-solved = solved
col-penalty = penalty
col-submissions = submissions
col-submitted = submitted
col-language = language
col-status = status
col-time = time
col-test = test
col-verdict = verdict
col-memory = memory
col-reason = reason

## Sign in (login.html).
login-heading = Sign in
login-name = Name
login-password = Password

## The contest's home (home.html).
home-problem = {$title}: {$tests} tests, {$points} points, {$ms} ms, {$mib} MiB.
home-announcements = Announcements
home-window-open = Open practice: submit at any time.
home-window-timed = From {$start} to {$end}.
home-rules-oi = Rules: OI. Your last submission counts.
home-rules-ioi = Rules: IOI. Your best submission counts.
home-rules-acm = Rules: ACM. Problems solved, then penalty minutes.
home-solution = The write-up
home-tests-zip = The tests (zip)
solution-heading = The write-up

## The statement (statement.html).
statement-samples = The samples, drawn
statement-sample = Sample {$k}: n = {$n}
statement-limits = Time limit {$ms} ms, memory {$mib} MiB, source at most {$kib} KiB.
# Shown above a statement the package has only in another language.
statement-other-language = The statement is not written in English in this package: here it is in {$language}.

## Submit (submit.html).
submit-detect = detect from the file name
submit-file = File
submit-paste = or paste the source
submit-at-most = At most {$kib} KiB.
submit-remaining = {$n} submissions left.

## Submissions (submissions.html, submission.html, replay.html).
submissions-none = No submission yet.
submissions-older = Older submissions →
submissions-newest = ← Newest submissions
submissions-yours = Your submissions
submissions-of = Submissions of {$name}
submission-heading = Submission {$id}
submission-judged-times = judged {$n} times
submission-status = Status
submission-score = score
submission-compile-error = Compilation error
submission-hidden-tests = {$n} more tests not shown (the contest's feedback policy).
submission-replay = The replay of the failing tests, move by move
submission-source = Source
replay-heading = Replay of submission {$id}
replay-submitted = submitted {$when}
replay-score = score {$score}
replay-intro = Each failing test: the reason, the answer beside the reference's, and the moves replayed on the board (the moving block outlined with its arrow, each removal pass with the cleared blocks crossed out, the first wrong move boxed); the reference solutions at the end.
# The replay's heading of the submission's section.
replay-section = submission {$id}: {$file}
replay-sandbox = the contest's sandbox

## The ranking (ranking.html).
ranking-frozen = The ranking is frozen: submissions of the last minutes show as pending until the end.
ranking-disqualified = disqualified

## Clarifications (clarifications.html).
clar-question = A question to the teacher
clar-ask = Ask
clar-asked = Asked
clar-answered = , answered
clar-to-everybody = To everybody
clar-answer = Answer
clar-not-answered = Not answered yet.
clar-public = to everybody

## The teacher's page (admin.html, password.html, contestants.html, confirm.html).
admin-heading = Teacher
admin-queue = {$n} submissions waiting or being judged.
admin-unanswered = {$n} unanswered
admin-reports = Reports
admin-reports-intro-html = The reports <code>grade --contest</code> writes, of each contestant's last submission:
admin-programs = Every contestant's last program, to grade offline:
admin-layout = {$name} layout
admin-grades = Final grades for a gradebook's import:
admin-keeping = Keeping it
admin-backup = Download a backup
admin-backup-what = of the whole contest (one consistent copy, taken while the judge runs).
admin-announce = Announce
admin-rejudge = Rejudge
admin-rejudge-all = Rejudge every submission…
admin-rejudge-one = Rejudge…
admin-contestants = Contestants
admin-roster = Read the contestants' file again
admin-roster-what = : add new contestants while the contest runs (what would change is shown first).
admin-col-name = name
admin-col-shown-as = shown as
admin-reinstate = Reinstate
admin-disqualify = Disqualify…
admin-new-password = New password
admin-sign-out-everywhere = Sign out everywhere
password-heading = New password for {$name}
password-give = Give it to {$name}: it is shown once, here, and stored only as a hash. Every session and API token of theirs has ended.
roster-heading = Contestants in
roster-nothing-changed = Nothing was changed. Correct the file, then
roster-read-again = read it again
roster-applied = Applied
roster-passwords = Generated passwords (shown once; also in passwords.csv)
roster-col-password = password
roster-source = The contestants of
roster-no-file = No contest file
roster-dry-run = , read again just now. A dry run: nothing has changed yet.
roster-apply = Apply these changes
confirm-rejudge = Rejudge?
confirm-rejudge-yes = Yes, rejudge
confirm-rejudge-one = Rejudge submission {$id} of {$name}? Its result shows as pending until it is judged again.
confirm-rejudge-user = Rejudge every submission of {$name} ({$n})? Their results show as pending until judged again.
confirm-rejudge-all = Rejudge every submission ({$n}) of every contestant? Every result shows as pending until judged again, and the queue is as long as the whole contest.
confirm-disqualify = Disqualify?
confirm-disqualify-yes = Yes, disqualify
confirm-disqualify-what = Disqualify {$name}? They can no longer submit, and leave the ranking and the reports (reinstating them brings them back).

## Similar programs (similar.html).
similar-heading = Similar programs
similar-intro-html = Each contestant's last program, compared ({$programs} programs): renaming, layout, reordered functions and translations between languages do not hide a copy; code most programs share counts for little. Pairs at or above {$threshold} are flagged (<code>mayan-judge similar</code> and docs/SIMILAR.md say how).
similar-group = Group
similar-col-similarity = similarity
similar-col-share = share of {$who}
similar-none = No two programs share anything yet.
similar-too-deep = { $name }: too deep to compare (nesting deeper than { $limit } levels at line { $line }); the other programs are compared.
similar-not-compared = { $name }: cannot be parsed, not compared; the other programs are compared.

## A submission's status in lists (and live.js).
status-queued = queued
status-judging = judging
status-compiling = compiling
status-running = running test {$k} of {$n}
status-judged = judged
status-judged-later = judged (results at the end)
# A verdict in a list: its code, and its name where the language has one.
status-verdict = {$code}

## Refusals (src/server/actions.rs), on a page or as the API's error (the
## API: always English).
refusal-wrong-password = Wrong name or password.
refusal-sign-ins-source = Too many wrong passwords for this name from this browser or address: wait {$seconds} s and try again.
refusal-sign-ins-account = Too many sign-ins for this name from unknown devices (wrong passwords, or many waiting): sign in from a browser that signed in before, or wait {$seconds} s.
refusal-sign-ins-running = A sign-in for this name from this browser or address is being checked: wait for its answer.
refusal-sign-ins-queue = The judge is checking many sign-ins: try again in a few seconds.
refusal-disqualified = You are disqualified: the teacher stopped your submissions.
refusal-contest-over = The contest is over: no submissions now.
refusal-contest-not-started = The contest has not started: no submissions now.
refusal-used-all = You have used all {$max} submissions.
refusal-empty-source = The source is empty: choose a file or paste the program.
refusal-too-large = The source is larger than {$kib} KiB: refused.
refusal-too-many-submissions = Too many submissions in a row: wait a minute.
refusal-language-not-allowed = The language `{$language}` is not allowed here.
refusal-choose-language = Choose the language: it cannot be told from the file name.
refusal-questions = You have asked {$n} questions, the most this contest allows.
refusal-field-empty = The {$what} is empty.
refusal-field-long = The {$what} is longer than 2000 characters.
field-question = question
field-answer = answer
field-announcement = announcement

# The server's limits (a class behind one address; an attacker's failures).
refusal-sign-ins-address = Too many sign-ins from your network (wrong passwords, or its share of the queue in use): wait {$seconds} s and try again.
fail-too-many-connections = You hold too many connections to the judge: close some of your tabs, windows or programs, then try again.
fail-too-many-streams = You have too many live pages open (each window or browser holds one): close some, then reload.

# The teacher's page: who holds the judge.
holders-heading = Who holds the judge
holders-intro = The accounts with the most live pages (event streams), connections and requests in the last minute or two. One browser holds one stream and up to six connections; an account holds 8 streams and 32 connections at most.
holders-col-streams = streams
holders-col-connections = connections
holders-col-requests = requests
holders-none = Nobody is signed in.

# The copied-programs page while it is being compared.
similar-computing-html = The final programs are being compared: this page comes back by itself in a moment (or <a href="">look again</a>).
similar-comparison = Comparison {$n} since the server started.

# The smallest board a submission fails on (its page).
counterexample-title = The smallest board your program fails on
counterexample-searching = Searching for a small board on which the program fails (this page shows it once found)…
counterexample-none = No small failing board was found within the search's bounds: the failing tests are larger.

# The rule that set the teacher's page's threshold, and what the class's median and spread are taken over.
similar-rule-class = Threshold { $threshold }: { $spreads } spreads above this class's median similarity { $median } (spread { $spread }).
similar-rule-floor = Threshold { $threshold }: the floor, as { $spreads } spreads above this class's median similarity { $median } (spread { $spread }) is lower.
similar-rule-ceiling = Threshold { $threshold }: the ceiling, as { $spreads } spreads above this class's median similarity { $median } (spread { $spread }) is higher.
similar-rule-fixed = Threshold { $threshold }: fixed; this class's median similarity { $median } (spread { $spread }).
similar-rule-small-class = Threshold { $threshold }: the default for a class of fewer than { $min } programs, which has no distribution of its own.
similar-over-every-pair = The median and spread are taken over { $pairs } pairs.
similar-over-sharing-pairs = Most pairs share nothing, so the median and spread are taken over the { $pairs } pairs that share something.
