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
