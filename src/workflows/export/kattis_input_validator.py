#!/usr/bin/env python3
"""Input validator for the Mayan puzzle (NOIP 2011), Kattis protocol.

Written by `mayan-judge export --format kattis`, in Python 3 with the standard
library only. Reads one puzzle on standard input; exit 42 when it is valid,
43 (with the reason on standard output) when not.

The rules are mayan-judge's RULES.md; the layout is the one the export writes
every input in (the judge itself ignores how whitespace is laid out):

    n
    the blocks of column 0 from the bottom up, then 0
    ...
    the blocks of column 4 from the bottom up, then 0

one line each, numbers separated by single spaces, no leading zeros, every
line ending in a newline. 1 <= n <= MAX_N; colours 1..10; at most 7 blocks a
column; the starting board holds no horizontal or vertical run of three equal
colours.
"""

import re
import sys

MAX_N = 5  # the package's [input] max_n, written by the export
WIDTH = 5
HEIGHT = 7
MAX_COLOUR = 10

VALID = 42
INVALID = 43

NUMBER = re.compile(rb"(?:0|[1-9][0-9]{0,2})\Z")


class Invalid(Exception):
    pass


def number(tok, line):
    if not NUMBER.match(tok):
        shown = tok.decode("utf-8", "replace")[:20]
        raise Invalid("line %d: `%s` is not a number as written here (1 to 3 digits, no sign, no leading zero)" % (line, shown))
    return int(tok)


def check(data):
    if not data.endswith(b"\n"):
        raise Invalid("the input does not end with a newline")
    lines = data[:-1].split(b"\n")
    if len(lines) != 1 + WIDTH:
        raise Invalid("expected %d lines (n, then one line per column), found %d" % (1 + WIDTH, len(lines)))
    n = number(lines[0], 1)
    if not 1 <= n <= MAX_N:
        raise Invalid("line 1: n = %d is outside 1..%d" % (n, MAX_N))
    board = []
    for x in range(WIDTH):
        line = x + 2
        toks = lines[x + 1].split(b" ")
        colours = [number(t, line) for t in toks]
        if colours[-1] != 0:
            raise Invalid("line %d: column %d does not end with 0" % (line, x))
        colours = colours[:-1]
        if 0 in colours:
            raise Invalid("line %d: column %d has a 0 before its end" % (line, x))
        if any(c > MAX_COLOUR for c in colours):
            raise Invalid("line %d: a colour is outside 1..%d" % (line, MAX_COLOUR))
        if len(colours) > HEIGHT:
            raise Invalid("line %d: column %d holds %d blocks, at most %d" % (line, x, len(colours), HEIGHT))
        board.append(colours + [0] * (HEIGHT - len(colours)))
    for y in range(HEIGHT):
        for x in range(WIDTH - 2):
            if board[x][y] and board[x][y] == board[x + 1][y] == board[x + 2][y]:
                raise Invalid("row %d: x %d..%d hold a run of three (colour %d)" % (y, x, x + 2, board[x][y]))
    for x in range(WIDTH):
        for y in range(HEIGHT - 2):
            if board[x][y] and board[x][y] == board[x][y + 1] == board[x][y + 2]:
                raise Invalid("column %d: y %d..%d hold a run of three (colour %d)" % (x, y, y + 2, board[x][y]))


def main():
    try:
        check(sys.stdin.buffer.read())
    except Invalid as e:
        print(e)
        return INVALID
    return VALID


if __name__ == "__main__":
    sys.exit(main())
