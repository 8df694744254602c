#!/usr/bin/env python3
"""Checker for the Mayan puzzle (NOIP 2011).

Written by `mayan-judge export`: a self-contained copy of the judge's checker
(src/puzzle/checker.rs in mayan-judge) under the literal rules of its RULES.md,
in Python 3 with the standard library only. PROTOCOL below says how the judge
calls it:

kattis (Kattis, DOMjudge, problemtools):
    validate.py INPUT ANSWER FEEDBACK_DIR [any] < team_output
    Exit 42: accepted; 43: wrong answer (the reason in FEEDBACK_DIR/judgemessage.txt,
    what a team may see in teammessage.txt); 1: judge error (a bad input or answer
    file: never the team's fault).
testlib (DMOJ's bridged checkers):
    checker.py INPUT OUTPUT ANSWER
    `ok`, `wrong answer`, `wrong output format` or `FAIL` and the reason on
    stderr; exit 0, 1, 2 or 3.
cms (CMS comparators):
    checker INPUT ANSWER OUTPUT
    The score (1.0 or 0.0) on stdout, `translate:success` or `translate:wrong`
    on stderr; exit 1 on a judge error.

Whatever PROTOCOL says, the file is also a DMOJ checker module (init.yml
`checker: checker.py`): DMOJ loads it once into its judge process and calls
check() below for every test, with no process started.

The team's moves are replayed in a simulator. They are accepted when they are
exactly n legal moves that leave the board empty (a board emptied before the
n-th move is not a solution) and equal the answer file's moves, which are the
smallest solution; or when both say -1. With the flag `any` (problem.yaml
`validator_flags: any`), any valid solution is accepted.
"""

import io
import os
import re
import sys

PROTOCOL = "kattis"  # kattis | testlib | cms: set by `mayan-judge export`
ACCEPT_ANY = False  # [checker] accept = "any" (under kattis, the flag `any` too)

WIDTH = 5  # columns, x = 0..4 from left to right
HEIGHT = 7  # rows, y = 0..6 from bottom to top
MAX_COLOUR = 10
MAX_MOVES = 12
I64_MAX = 2**63 - 1

ACCEPTED = 42
WRONG_ANSWER = 43
JUDGE_ERROR = 1

# What Rust's u8::is_ascii_whitespace accepts (not vertical tab).
WHITESPACE = b" \t\n\x0c\r"
# A leading UTF-8 byte order mark carries no meaning, as a blank.
BOM = b"\xef\xbb\xbf"


class JudgeError(Exception):
    """A problem with the input or answer file: the judge's fault."""


class Rejected(Exception):
    """The team's output is wrong; `verdict` is WA or PE (both exit 43)."""

    def __init__(self, verdict, message, move=None):
        Exception.__init__(self, message)
        self.verdict = verdict
        self.message = message
        self.move = move


# ---- tokens ---------------------------------------------------------------
#
# A contestant's output is read as a stream, CHUNK bytes at a time, and never
# held whole: blanks and blank lines are skipped by regular expressions (C
# speed), a token keeps its first HEAD bytes and its value, and reading stops
# at the first line that cannot be a move. Time and memory are linear in what
# is read and bounded by CHUNK beyond it, however long a line or a number is.

CHUNK = 1 << 16  # bytes read at a time
HEAD = 84  # bytes of a token kept: at least the 21 characters show_token needs
MAX_DIGITS = 19  # more significant digits are beyond the 64-bit range
BLANKS = re.compile(b"[ \t\n\x0c\r]*")
WORD = re.compile(b"[^ \t\n\x0c\r]*")
DIGITS = re.compile(b"[0-9]*")
# Each byte as its class, a blank b" " or a token's b"x", to count tokens.
CLASSES = bytes(0x20 if b in WHITESPACE else 0x78 for b in range(256))


class Token:
    """A token read in pieces: its line, its first HEAD bytes, its size and
    its value when it is a decimal integer with an optional sign (values
    beyond the 64-bit range saturate, so a huge number is still a number out
    of range), without holding more of it than that."""

    def __init__(self, line):
        self.line = line
        self.head = b""
        self.size = 0
        self.negative = False
        self.digits = 0
        self.significant = b""  # the first MAX_DIGITS + 1, leading zeros dropped
        self.integer = True

    def add(self, part):
        """Appends the next piece of the token."""
        body = part
        if not self.size and part[:1] in (b"-", b"+"):
            self.negative, body = part[:1] == b"-", part[1:]
        if len(self.head) < HEAD:
            self.head += part[: HEAD - len(self.head)]
        self.size += len(part)
        if not self.integer:
            return
        if DIGITS.fullmatch(body) is None:
            self.integer = False
            return
        self.digits += len(body)
        if not self.significant:
            body = body.lstrip(b"0")
        self.significant += body[: MAX_DIGITS + 1 - len(self.significant)]

    def value(self):
        """The integer, or None when the token is not one."""
        if not self.integer or not self.digits:
            return None
        value = min(int(self.significant or b"0"), I64_MAX)
        return -value if self.negative else value

    def is_text(self, text):
        return self.size == len(text) and self.head == text


class Scanner:
    """The whitespace-separated tokens of a stream: `read(size)` returns the
    next bytes, `size` of them unless at the end (as files and io.BytesIO
    do). A leading UTF-8 byte order mark carries no meaning, as a blank."""

    def __init__(self, read):
        self.read = read
        self.buf = read(CHUNK)
        if self.buf.startswith(BOM):
            self.buf = self.buf[len(BOM):]
        self.pos = 0
        self.line = 1
        self.ahead = None

    def more(self):
        """Whether unread bytes are left, reading the next chunk if needed."""
        if self.pos == len(self.buf):
            self.buf, self.pos = self.read(CHUNK), 0
        return self.pos < len(self.buf)

    def skip_blanks(self):
        """Skips blanks and line breaks, counting lines; False at the end."""
        while self.more():
            end = BLANKS.match(self.buf, self.pos).end()
            self.line += self.buf.count(b"\n", self.pos, end)
            self.pos = end
            if end < len(self.buf):
                return True
        return False

    def token(self):
        """The next token, or None at the end."""
        if self.ahead is not None:
            tok, self.ahead = self.ahead, None
            return tok
        if not self.skip_blanks():
            return None
        tok = Token(self.line)
        while self.more():
            end = WORD.match(self.buf, self.pos).end()
            tok.add(self.buf[self.pos:end])
            self.pos = end
            if end < len(self.buf):
                break
        return tok

    def token_on_line(self, line):
        """The next token if it is on `line`, else None (it is read next)."""
        tok = self.token()
        if tok is not None and tok.line != line:
            self.ahead, tok = tok, None
        return tok

    def count_to_line_end(self):
        """How many more tokens the line has, just after one: read to the
        line's end a chunk at a time, counted, never held."""
        count, after_blank = 0, False
        while self.more():
            nl = self.buf.find(b"\n", self.pos)
            end = len(self.buf) if nl < 0 else nl
            part = self.buf[self.pos:end].translate(CLASSES)
            count += part.count(b" x") + (after_blank and part[:1] == b"x")
            if part:
                after_blank = part[-1:] == b" "
            self.pos = end
            if nl >= 0:
                break
        return count


def reader(data):
    """A read function over bytes already in memory (not copied)."""
    return io.BytesIO(data).read


def show_token(tok):
    """A token's first bytes for a message: at most 20 characters."""
    s = tok.head.decode("utf-8", "replace")
    return s[:20] + "..." if len(s) > 20 else s


# ---- the puzzle -------------------------------------------------------------


def parse_puzzle(text):
    """(n, board) from an input file; JudgeError when it breaks the rules."""
    scanner = Scanner(reader(text))
    count = [0]

    def next_int(what):
        tok = scanner.token()
        if tok is None:
            raise JudgeError("invalid puzzle: input ends " + what)
        count[0] += 1
        v = tok.value()
        if v is None:
            raise JudgeError("invalid puzzle: token %d `%s` is not an integer" % (count[0], show_token(tok)))
        return v

    n = next_int("before n")
    if not 1 <= n <= MAX_MOVES:
        raise JudgeError("invalid puzzle: n = %d is outside 1..%d" % (n, MAX_MOVES))
    board = [[0] * HEIGHT for _ in range(WIDTH)]
    for x in range(WIDTH):
        y = 0
        while True:
            c = next_int("inside column %d" % x)
            if c == 0:
                break
            if not 1 <= c <= MAX_COLOUR:
                raise JudgeError("invalid puzzle: colour %d is outside 1..%d" % (c, MAX_COLOUR))
            if y == HEIGHT:
                raise JudgeError("invalid puzzle: column %d holds more than %d blocks" % (x, HEIGHT))
            board[x][y] = c
            y += 1
    extra = scanner.token()
    if extra is not None:
        raise JudgeError("invalid puzzle: token %d `%s` after the last column" % (count[0] + 1, show_token(extra)))
    if marked_cells(board):
        raise JudgeError("invalid puzzle: the starting board holds a run of three")
    return n, board


# ---- the simulator (RULES.md: Move, Settle) ------------------------------


def is_empty(board):
    return not any(any(col) for col in board)


def block_count(board):
    return sum(1 for col in board for c in col if c)


def marked_cells(board):
    """Every cell in a horizontal or vertical run of three or more equal
    colours, all runs at once."""
    marked = set()
    for y in range(HEIGHT):
        x = 0
        while x < WIDTH:
            c = board[x][y]
            end = x
            while end + 1 < WIDTH and c and board[end + 1][y] == c:
                end += 1
            if c and end - x >= 2:
                marked.update((k, y) for k in range(x, end + 1))
            x = end + 1
    for x in range(WIDTH):
        y = 0
        while y < HEIGHT:
            c = board[x][y]
            end = y
            while end + 1 < HEIGHT and c and board[x][end + 1] == c:
                end += 1
            if c and end - y >= 2:
                marked.update((x, k) for k in range(y, end + 1))
            y = end + 1
    return marked


def settle(board):
    """Gravity, then remove every run of three or more at once; repeat until
    nothing is removed."""
    while True:
        for x in range(WIDTH):
            blocks = [c for c in board[x] if c]
            board[x] = blocks + [0] * (HEIGHT - len(blocks))
        marked = marked_cells(board)
        if not marked:
            return
        for x, y in marked:
            board[x][y] = 0


def illegal_reason(board, x, y, g):
    """Why `x y g` is not a legal move here, or None when it is."""
    if is_empty(board):
        return "the board is already empty"
    if not 0 <= x < WIDTH:
        return "x = %d is off the board (0..4)" % x
    if not 0 <= y < HEIGHT:
        return "y = %d is off the board (0..6)" % y
    if g not in (1, -1):
        return "g = %d must be 1 or -1" % g
    if not 0 <= x + g < WIDTH:
        return "x + g = %d moves the block off the board" % (x + g)
    if board[x][y] == 0:
        return "cell (%d, %d) is empty" % (x, y)
    return None


def play(board, x, y, g):
    """Plays a legal move: the block trades places with its neighbour (a
    block of any colour, or an empty cell), then the board settles."""
    board[x][y], board[x + g][y] = board[x + g][y], board[x][y]
    settle(board)


# ---- answers -------------------------------------------------------------------


NO_SOLUTION = "-1"


def parse_answer(read, n):
    """(moves, lines): NO_SOLUTION or the move lines [x, y, g] (at most n of
    them), and the line of each move, from the stream `read`. Rejected with
    PE when the text is not in the output format; reading stops at the
    first line that cannot be a move (a line is read no further than its
    fourth token, but to its end to count its tokens)."""
    scanner = Scanner(read)
    moves, lines = [], []
    minus_one = False
    while True:
        first = scanner.token()
        if first is None:
            break
        line = first.line
        toks = [first]
        while len(toks) < 4:
            tok = scanner.token_on_line(line)
            if tok is None:
                break
            toks.append(tok)
        if minus_one:
            raise Rejected("PE", "line %d: `-1` must be the only line" % line)
        if len(toks) == 1 and first.is_text(b"-1"):
            if moves:
                raise Rejected("PE", "line %d: `-1` must be the only line" % line)
            minus_one = True
            continue
        values = []
        for tok in toks[:3]:
            v = tok.value()
            if v is None:
                raise Rejected("PE", "line %d: token `%s` is not an integer" % (line, show_token(tok)))
            values.append(v)
        if len(toks) != 3:
            found = len(toks) + (scanner.count_to_line_end() if len(toks) == 4 else 0)
            raise Rejected("PE", "line %d: expected 3 integers `x y g`, found %d tokens" % (line, found))
        if len(moves) == n:
            raise Rejected("PE", "line %d: more than n = %d moves" % (line, n))
        moves.append(values)
        lines.append(line)
    if minus_one:
        return NO_SOLUTION, []
    if not moves:
        raise Rejected("PE", "empty output: expected n moves or -1")
    return moves, lines


def replay(n, start, moves):
    """Replays moves under the literal rules; Rejected unless they are n
    legal moves that leave the board empty."""
    board = [col[:] for col in start]
    for i, (x, y, g) in enumerate(moves):
        if i > 0 and is_empty(board):
            raise Rejected(
                "WA", "the board is empty after move %d, but n = %d moves are required" % (i, n), move=i
            )
        why = illegal_reason(board, x, y, g)
        if why is not None:
            raise Rejected("WA", "move %d `%d %d %d` is illegal: %s" % (i + 1, x, y, g, why), move=i + 1)
        play(board, x, y, g)
    if not is_empty(board):
        if len(moves) < n:
            raise Rejected("PE", "%d moves given, n = %d required" % (len(moves), n))
        raise Rejected(
            "WA", "after %d moves the board still holds %d blocks" % (len(moves), block_count(board))
        )
    if len(moves) < n:
        raise Rejected(
            "WA",
            "the board is empty after move %d, but n = %d moves are required" % (len(moves), n),
            move=len(moves),
        )


def move_text(m):
    return "%d %d %d" % tuple(m)


def judge(n, board, reference, read_output, accept_any):
    """Raises Rejected for a wrong output (read from the stream
    `read_output`) and JudgeError when the team's moves clear a board the
    answer file calls impossible."""
    written, lines = parse_answer(read_output, n)
    if written == NO_SOLUTION:
        if reference != NO_SOLUTION:
            raise Rejected(
                "WA", "answer is -1 but a solution exists (it starts with `%s`)" % move_text(reference[0])
            )
        return
    try:
        judge_moves(n, board, reference, written, accept_any)
    except Rejected as r:
        if r.move:
            r.message = "line %d: %s" % (lines[r.move - 1], r.message)
        raise


def judge_moves(n, board, reference, written, accept_any):
    """judge() for written moves: Rejected names the move to blame."""
    replay(n, board, written)
    if reference == NO_SOLUTION:
        moves = ", ".join(move_text(m) for m in written)
        raise JudgeError("the moves `%s` legally clear a board the answer file calls impossible" % moves)
    if accept_any:
        return
    for i, (theirs, expected) in enumerate(zip(written, reference)):
        if theirs != expected:
            raise Rejected(
                "WA",
                "the moves clear the board but are not the smallest solution: move %d is `%s`, "
                "the smallest solution has `%s`" % (i + 1, move_text(theirs), move_text(expected)),
                move=i + 1,
            )


# ---- the protocol ----------------------------------------------------------


def read(path, what):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise JudgeError("cannot read the %s file %s: %s" % (what, path, e))


def verdict(input_path, answer_path, read_output, accept_any):
    """(verdict, message, move) of the output read from the stream
    `read_output`: AC, WA or PE (the move to blame, or None), or FAIL for a
    judge error."""
    try:
        puzzle, answer = read(input_path, "input"), read(answer_path, "answer")
    except JudgeError as e:
        return "FAIL", "judge error: %s" % e, None
    return verdict_of(puzzle, answer, read_output, accept_any)


def verdict_of(puzzle, answer, read_output, accept_any):
    """verdict() on the input and answer files' bytes."""
    try:
        n, board = parse_puzzle(puzzle)
        try:
            reference, _ = parse_answer(reader(answer), n)
            if reference != NO_SOLUTION:
                replay(n, board, reference)
        except Rejected as r:
            raise JudgeError("stored answer: " + r.message)
        judge(n, board, reference, read_output, accept_any)
    except JudgeError as e:
        return "FAIL", "judge error: %s" % e, None
    except OSError as e:
        return "FAIL", "judge error: cannot read the output: %s" % e, None
    except Rejected as r:
        return r.verdict, r.message, r.move
    return "AC", "correct", None


def run(args, read_output):
    """Kattis: (exit code, judge message, team message)."""
    if len(args) < 3:
        return JUDGE_ERROR, "judge error: usage: validate.py INPUT ANSWER FEEDBACK_DIR [any] < output", None
    accept_any = ACCEPT_ANY
    for flag in args[3:]:
        if flag in ("any", "accept_any"):
            accept_any = True
        else:
            return JUDGE_ERROR, "judge error: unknown validator flag `%s` (known: any)" % flag, None
    v, message, move = verdict(args[0], args[1], read_output, accept_any)
    if v == "FAIL":
        return JUDGE_ERROR, message, "judge error"
    if v == "AC":
        return ACCEPTED, "AC: correct", "accepted"
    team = "%s: move %d is wrong" % (v, move) if move else v
    return WRONG_ANSWER, "%s: %s" % (v, message), team


def main_kattis(args):
    code, judge_message, team_message = run(args, sys.stdin.buffer.read)
    if len(args) >= 3:
        try:
            with open(os.path.join(args[2], "judgemessage.txt"), "w") as f:
                f.write(judge_message + "\n")
            if team_message is not None:
                with open(os.path.join(args[2], "teammessage.txt"), "w") as f:
                    f.write(team_message + "\n")
        except OSError as e:
            sys.stderr.write("judge error: cannot write feedback: %s\n" % e)
            return JUDGE_ERROR
    if code == JUDGE_ERROR:
        sys.stderr.write(judge_message + "\n")
    return code


TESTLIB = {"AC": (0, "ok"), "WA": (1, "wrong answer"), "PE": (2, "wrong output format"), "FAIL": (3, "FAIL")}


def judged(args, usage, out, ans):
    """The verdict and message of the output named by args[out], against the
    input args[0] and the answer args[ans]; FAIL with why where the
    arguments or the output cannot be read."""
    if len(args) != 3:
        return "FAIL", "judge error: usage: " + usage
    try:
        output = open(args[out], "rb")
    except OSError as e:
        return "FAIL", "judge error: cannot read the output file %s: %s" % (args[out], e)
    with output:
        v, message, _ = verdict(args[0], args[ans], output.read, ACCEPT_ANY)
    return v, message


def main_testlib(args):
    v, message = judged(args, "checker.py INPUT OUTPUT ANSWER", out=1, ans=2)
    code, word = TESTLIB[v]
    sys.stderr.write("%s %s\n" % (word, message))
    return code


def main_cms(args):
    v, message = judged(args, "checker INPUT ANSWER OUTPUT", out=2, ans=1)
    if v == "FAIL":
        sys.stderr.write(message + "\n")
        return 1
    sys.stdout.write("1.0\n" if v == "AC" else "0.0\n")
    sys.stderr.write("translate:success\n" if v == "AC" else "translate:wrong\n")
    return 0


# What DMOJ's site keeps of a test's feedback (SubmissionTestCase.feedback).
FEEDBACK_CHARS = 50


def check(process_output, judge_output, judge_input=b"", point_value=1, **kwargs):
    """DMOJ's checker call (bytes: the program's output, the answer file, the
    input file): a CheckerResult whose feedback is the reason as under kattis
    (`WA: ...`, `PE: ...`), and also its extended_feedback when longer than
    the FEEDBACK_CHARS DMOJ's site keeps of feedback. A judge error raises
    InternalError, as DMOJ's bridged testlib checkers do on `FAIL`. DMOJ's
    other keywords are not used."""
    from dmoj.error import InternalError
    from dmoj.result import CheckerResult

    v, message, _ = verdict_of(judge_input, judge_output, reader(process_output), ACCEPT_ANY)
    if v == "FAIL":
        raise InternalError("checker failed: %s" % message)
    if v == "AC":
        return CheckerResult(True, point_value)
    feedback = "%s: %s" % (v, message)
    extended = feedback if len(feedback) > FEEDBACK_CHARS else None
    return CheckerResult(False, 0, feedback=feedback, extended_feedback=extended)


def main():
    args = sys.argv[1:]
    if PROTOCOL == "testlib":
        return main_testlib(args)
    if PROTOCOL == "cms":
        return main_cms(args)
    return main_kattis(args)


if __name__ == "__main__":
    sys.exit(main())
