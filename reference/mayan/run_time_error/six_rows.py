# RUN-TIME ERROR (Mayan, NOIP 2011): the accepted Python solution
# (accepted/solution.py) with one bug: the input is read into a grid of 5 x 6
# cells (the author thought the board had 6 rows), so any input with a full
# column of 7 blocks raises IndexError while reading (exit code 1). Every other
# input is solved correctly (a column can only hold 7 blocks during play if it
# starts with 7). Official cases 5, 6, 7, 9, 10 have a full column.
#
# The search is the accepted one (literal rules, lexicographic order).
#
# Safe pruning only (none of it can drop the smallest solution):
#  * memo of dead (board, moves left) states;
#  * a left move only into an empty cell (a left swap with a block gives the same
#    board as the earlier right swap of the neighbour);
#  * a column-displacement bound.  A block changes column only when a move
#    carries it, by exactly one column; one move carries at most one block of
#    each colour (two swapped blocks differ in colour, or the move changes
#    nothing) and at most two blocks in all.  Put every block of colour c in the
#    column where it will be removed: that count vector must be `feasible` (see
#    below).  need(c) = fewest one-column shifts from the present count vector of
#    c to a feasible one (above n, or a colour with 1 or 2 blocks: hopeless).
#    With k moves left: need(c) <= k for every colour and S = sum need(c) <= 2k.
#    The next move, carrying the colour set C, must then satisfy: every colour
#    with need(c) = k is in C, and at least S - 2(k-1) colours of C have need
#    >= 1; for the last move (k = 1) the carried colours must be feasible where
#    they land, since no move is left.
import sys

WINDOWS = [(0, 1, 2), (1, 2, 3), (2, 3, 4), (0, 1, 2, 3), (1, 2, 3, 4), (0, 1, 2, 3, 4)]
FEAS = {}


def feasible(v):
    """Can the blocks of one colour, with v[x] of them in column x, all be
    removed without any of them changing column?  Each block lies, when it is
    removed, in a horizontal run (one block in each of >= 3 consecutive
    columns) or a vertical run (>= 3 in one column), or both.  Let w[x] be the
    number of horizontal runs covering column x (over the whole game) and
    e[x] = v[x] - w[x] the blocks of column x in vertical runs only: a vertical
    run of length m >= 3 shares at most m and at most w[x] of its blocks with
    horizontal runs, so e[x] = 0 or e[x] >= max(1, 3 - w[x])."""
    r = FEAS.get(v)
    if r is None:
        r = FEAS[v] = _feasible(v, list(v), 0)
    return r


def _feasible(v, rest, i):
    if i == len(WINDOWS):
        for x in range(5):
            e = rest[x]
            if e and e < 3 - min(v[x] - e, 2):
                return False
        return True
    win = WINDOWS[i]
    top = min(rest[x] for x in win)
    for m in range(top + 1):
        if m:
            for x in win:
                rest[x] -= 1
        if _feasible(v, rest, i + 1):
            for x in win:
                rest[x] += m
            return True
    for x in win:
        rest[x] += top
    return False


SHIFTED = {}
DISP = {}
MAXD = [5]


def disp_need(v):
    """Fewest one-column block shifts turning count vector v into a feasible
    one (0 for no blocks; MAXD+1 when above MAXD or with 1-2 blocks)."""
    r = DISP.get(v)
    if r is None:
        r = DISP[v] = _bfs(v)
    return r


def _bfs(v):
    tot = sum(v)
    if tot == 0:
        return 0
    if tot < 3:
        return MAXD[0] + 1
    seen = {v}
    frontier = [v]
    for dist in range(MAXD[0] + 1):
        for u in frontier:
            if feasible(u):
                return dist
        nxt = []
        for u in frontier:
            for i in range(5):
                if u[i]:
                    for j in (i - 1, i + 1):
                        if 0 <= j < 5:
                            w = list(u)
                            w[i] -= 1
                            w[j] += 1
                            w = tuple(w)
                            if w not in seen:
                                seen.add(w)
                                nxt.append(w)
        frontier = nxt
    return MAXD[0] + 1


def count_vectors(cols):
    cv = {}
    for x in range(5):
        col = cols[x]
        for v in set(col):
            l = cv.get(v)
            if l is None:
                l = cv[v] = [0, 0, 0, 0, 0]
            l[x] = col.count(v)
    return {v: tuple(l) for v, l in cv.items()}


def shift_feasible(vec, x, tx):
    """feasible after one block of this colour goes from column x to column tx."""
    key = (vec, x, tx)
    r = SHIFTED.get(key)
    if r is None:
        w = list(vec)
        w[x] -= 1
        w[tx] += 1
        r = SHIFTED[key] = feasible(tuple(w))
    return r


class _Cache(dict):
    """dict that computes a missing entry with self.fn(key) and keeps it."""
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def __missing__(self, key):
        v = self[key] = self.fn(key)
        return v


def _runs_mask(seq):
    """Bit i set when seq[i] (non-zero) lies in a run of >= 3 equal values."""
    mask = 0
    n = len(seq)
    i = 0
    while i < n:
        v = seq[i]
        e = i + 1
        while e < n and seq[e] == v:
            e += 1
        if v and e - i >= 3:
            mask |= ((1 << (e - i)) - 1) << i
        i = e
    return mask


COL_RUNS = _Cache(_runs_mask)                  # column bytes -> marked rows
ROW_RUNS = _Cache(lambda row: tuple((_runs_mask(row) >> x) & 1 for x in range(5)))
DROP = _Cache(lambda cm: bytes(v for i, v in enumerate(cm[0]) if not (cm[1] >> i) & 1))
PAD = [bytes(7 - i) for i in range(8)]


def settle(cols):
    """cols: 5 compacted columns (bytes). Remove all runs at once and drop,
    until nothing is removed. Returns the settled board (tuple)."""
    while True:
        ms = [COL_RUNS[c] for c in cols]
        h0, h1, h2, h3, h4 = map(len, cols)
        top = max(min(h0, h1, h2), min(h1, h2, h3), min(h2, h3, h4))
        if top:
            flat = b"".join([c + PAD[len(c)] for c in cols])
            for y in range(top):
                r = ROW_RUNS[flat[y::7]]
                if r[2]:                        # every horizontal run covers x = 2
                    for x in range(5):
                        if r[x]:
                            ms[x] |= 1 << y
        if not any(ms):
            return tuple(cols)
        cols = [DROP[c, m] if m else c for c, m in zip(cols, ms)]


def run_at(cols, x, y):
    """Is the block at (x, y) in a run of >= 3?"""
    col = cols[x]
    v = col[y]
    a = y
    while a > 0 and col[a - 1] == v:
        a -= 1
    b = y
    n = len(col)
    while b + 1 < n and col[b + 1] == v:
        b += 1
    if b - a >= 2:
        return True
    a = x
    while a > 0 and len(cols[a - 1]) > y and cols[a - 1][y] == v:
        a -= 1
    b = x
    while b < 4 and len(cols[b + 1]) > y and cols[b + 1][y] == v:
        b += 1
    return b - a >= 2


def swapped(cols, x, y):
    """Board after swapping the blocks (x, y), (x+1, y) (different colours),
    before settling, and whether a run formed."""
    col = cols[x]
    nb = cols[x + 1]
    new = list(cols)
    new[x] = col[:y] + nb[y:y + 1] + col[y + 1:]
    new[x + 1] = nb[:y] + col[y:y + 1] + nb[y + 1:]
    return new, (run_at(new, x, y) or run_at(new, x + 1, y))


def moved(cols, x, y, tx):
    """Board after block (x, y) moves into the empty cell of column tx and
    everything drops, before removing, and whether a run formed."""
    col = cols[x]
    new = list(cols)
    new[x] = col[:y] + col[y + 1:]
    new[tx] = cols[tx] + col[y:y + 1]
    if run_at(new, tx, len(new[tx]) - 1):
        return new, True
    for yy in range(y, len(new[x])):          # the cells that dropped
        if run_at(new, x, yy):
            return new, True
    return new, False


def all_moves(cols):
    """Every move worth trying, in lexicographic order (a left move only into
    an empty cell)."""
    out = []
    for x in range(5):
        for y in range(len(cols[x])):
            if x < 4:
                out.append((x, y, 1))
            if x > 0 and len(cols[x - 1]) <= y:
                out.append((x, y, -1))
    return out


def moves_carrying(cols, colours):
    """The moves (as in all_moves) that carry a block of one of `colours`,
    in lexicographic order."""
    out = set()
    for x in range(5):
        col = cols[x]
        for v in colours:
            y = col.find(v)
            while y >= 0:
                if x < 4:
                    out.add((x, y, 1))
                if x > 0:
                    if len(cols[x - 1]) <= y:
                        out.add((x, y, -1))
                    else:
                        out.add((x - 1, y, 1))
                y = col.find(v, y + 1)
    return sorted(out, key=lambda m: (m[0], m[1], -m[2]))


def solve(start, n):
    dead = set()
    path = []

    def dfs(cols, k):
        # k >= 1 moves left; True when path holds a solution from here
        if not any(cols):
            return False                      # an empty board has no legal move
        key = (cols, k)
        if key in dead:
            return False
        cv = count_vectors(cols)
        need = {}
        total = 0
        must = []
        for v, vec in cv.items():
            t = disp_need(vec)
            if t > k:
                dead.add(key)
                return False
            need[v] = t
            total += t
            if t == k:
                must.append(v)
        if total > 2 * k:
            dead.add(key)
            return False
        d = total - 2 * (k - 1)   # how many needy colours the next move must carry
        if must:
            moves = moves_carrying(cols, must[:1])
        elif d > 0:
            moves = moves_carrying(cols, [v for v in need if need[v]])
        else:
            moves = all_moves(cols)
        free = not must and d <= 0

        def fits(carried):
            for v in must:
                if v not in carried:
                    return False
            return d <= 0 or sum(1 for v in carried if need[v]) >= d

        last = k == 1
        k1 = k - 1
        for m in moves:
            x, y, g = m
            a = cols[x][y]
            tx = x + g
            if len(cols[tx]) > y:             # g == 1 here: a swap of two blocks
                b = cols[tx][y]
                if a == b:
                    # equal colours: a legal move that changes nothing
                    if last or not (free or fits(())):
                        continue
                    path.append(m)
                    if dfs(cols, k1):
                        return True
                    path.pop()
                    continue
                if not (free or fits((a, b))):
                    continue
                if last and not (shift_feasible(cv[a], x, tx) and shift_feasible(cv[b], tx, x)):
                    continue
                new, run = swapped(cols, x, y)
            else:                             # into the empty cell, then drop
                if not (free or fits((a,))):
                    continue
                if last and not shift_feasible(cv[a], x, tx):
                    continue
                new, run = moved(cols, x, y, tx)
            if last:
                if run and not any(settle(new)):
                    path.append(m)
                    return True
            else:
                path.append(m)
                if dfs(settle(new) if run else tuple(new), k1):
                    return True
                path.pop()
        dead.add(key)
        return False

    if n <= 0:
        return [] if not any(start) else None
    MAXD[0] = n
    return path if dfs(start, n) else None


ROWS = 6      # BUG: the board has 7 rows (y = 0..6), not 6


def main():
    t = list(map(int, sys.stdin.read().split()))
    if not t:
        return
    n = t[0]
    grid = [[0] * ROWS for _ in range(5)]
    i = 1
    for x in range(5):
        y = 0
        while t[i] != 0:
            grid[x][y] = t[i]          # IndexError on the 7th block of a column
            y += 1
            i += 1
        i += 1
    cols = tuple(bytes(v for v in grid[x] if v) for x in range(5))
    res = solve(cols, n)
    if res is None:
        sys.stdout.write("-1\n")
    else:
        sys.stdout.write("".join("%d %d %d\n" % m for m in res))


main()
