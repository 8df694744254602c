# Words every front end shares: the language's own name (on the switch),
# dates, verdicts.

# The language's name in itself, on the language switch.
language-name = English
# A time in the contest's time zone. Arguments: $year, $month (1-12),
# $month2 (01-12), $day, $day2 (01-31), $time (hh:mm:ss).
date-time = {$year}-{$month2}-{$day2} {$time}

# Each verdict's name where a person reads it beside its code.
verdict-AC = accepted
verdict-WA = wrong answer
verdict-PE = presentation error
verdict-NOF = no output file
verdict-TLE = time limit exceeded
verdict-MLE = memory limit exceeded
verdict-OLE = output limit exceeded
verdict-RE = runtime error
verdict-CE = compilation error
verdict-FAIL = judge error
