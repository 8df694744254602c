# Mayan puzzle (NOIP 2011 day 1 problem 3): accepted Python 3 reference.
# Literal rules of RULES.md: exactly n moves; a swap of two equal colours is a
# legal move (nothing changes, it still counts); a board emptied before the n-th
# move is not a solution. DFS in lexicographic move order (x, y, g=1 before -1),
# the first solution found is the answer.
# Safe pruning:
#  * memo of dead (board, moves left) states;
#  * a left move only into an empty cell (a left swap with a block gives the same
#    board as the earlier right swap of the neighbour);
#  * a column-displacement bound.  A block changes column only when a move carries
#    it, and one move carries at most one block of a colour (two swapped blocks
#    differ in colour, else the move changes nothing) and at most two blocks in
#    all.  Every block must at some time lie in a run of >= 3 of its colour: a
#    vertical run in its own column or a horizontal run in 3 consecutive columns.
#    need(c) = the fewest blocks of colour c that must change column for this to
#    be possible, ignoring heights and time (0, 1, or "2 or more"; infinite for a
#    colour with 1 or 2 blocks).  With k moves left we need need(c) <= k for each
#    colour and sum of need(c) <= 2k.
import sys


def build_need_table():
    # index: sum(min(cnt[x], 3) * 4**x); cnt[x] = blocks of the colour in column x
    INF = 99
    table = [0] * 1024
    for code in range(1024):
        cnt = [(code >> (2 * x)) & 3 for x in range(5)]
        total = sum(cnt)
        if total == 0:
            table[code] = 0
            continue
        if total < 3 and max(cnt) < 3:
            # only when the colour really has 1 or 2 blocks; a capped 3 means >= 3
            table[code] = INF
            continue

        def ok0(c):
            for x in range(5):
                if c[x] == 0 or c[x] >= 3:
                    continue
                good = False
                for w in range(max(0, x - 2), min(2, x) + 1):
                    if c[w] and c[w + 1] and c[w + 2]:
                        good = True
                        break
                if not good:
                    return False
            return True

        def ok1(c):
            # one block of the colour may be moved freely (a wildcard)
            for x in range(5):
                if c[x] == 0 or c[x] >= 2:
                    continue
                if not any(c[z] for z in range(max(0, x - 2), min(4, x + 2) + 1) if z != x):
                    return False
            return True

        if ok0(cnt):
            table[code] = 0
            continue
        best = 2
        for x0 in range(5):
            if cnt[x0]:
                c = cnt[:]
                # removing one block from a capped 3 may leave 2 or more: keep 2
                c[x0] = c[x0] - 1 if c[x0] < 3 else 2
                if ok1(c):
                    best = 1
                    break
        table[code] = best
    return table


NEED = build_need_table()
SHIFT = (1, 4, 16, 64, 256)


def need_by_colour(cols):
    codes = {}
    for x in range(5):
        col = cols[x]
        if not col:
            continue
        sh = SHIFT[x]
        for v in set(col):
            m = col.count(v)
            codes[v] = codes.get(v, 0) + (m if m < 3 else 3) * sh
    return codes


def bound_ok(cols, k):
    s = 0
    k2 = 2 * k
    for code in need_by_colour(cols).values():
        t = NEED[code]
        if t > k:
            return False
        s += t
        if s > k2:
            return False
    return True


def find_marks(cols):
    """Set of (x, y) in some run of >= 3 (all runs at once)."""
    marks = None
    for x in range(5):
        col = cols[x]
        n = len(col)
        y = 0
        while y < n:
            v = col[y]
            e = y + 1
            while e < n and col[e] == v:
                e += 1
            if e - y >= 3:
                if marks is None:
                    marks = set()
                for yy in range(y, e):
                    marks.add((x, yy))
            y = e
    h = [len(c) for c in cols]
    top = max(h)
    for y in range(top):
        x = 0
        while x < 3:
            if h[x] <= y:
                x += 1
                continue
            v = cols[x][y]
            e = x + 1
            while e < 5 and h[e] > y and cols[e][y] == v:
                e += 1
            if e - x >= 3:
                if marks is None:
                    marks = set()
                for xx in range(x, e):
                    marks.add((xx, y))
            x = e
    return marks


def settle(cols):
    """cols: list of 5 bytes columns (already compacted). Returns settled tuple."""
    while True:
        marks = find_marks(cols)
        if not marks:
            return tuple(cols)
        cols = [bytes(v for y, v in enumerate(cols[x]) if (x, y) not in marks) for x in range(5)]


def run_at(cols, x, y):
    """Is cell (x, y) (holding a block) in a run of >= 3?"""
    col = cols[x]
    v = col[y]
    # vertical
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


def solve(start, n):
    dead = set()
    path = []
    sys.setrecursionlimit(10000)

    def child_after_move_into_empty(cols, x, y, tx):
        # block (x, y) moves to the empty cell in column tx and falls
        col = cols[x]
        new = list(cols)
        new[x] = col[:y] + col[y + 1:]
        new[tx] = cols[tx] + col[y:y + 1]
        # changed cells: column x from y up, and the landing cell
        hit = run_at(new, tx, len(new[tx]) - 1)
        if not hit:
            nx = new[x]
            for yy in range(y, len(nx)):
                if run_at(new, x, yy):
                    hit = True
                    break
        if hit:
            return settle(new)
        return tuple(new)

    def empties(new, x, y, tx, carried):
        """After the last move (new = board before settling; the move changed
        cells from (x, y) in column x and one cell of column tx): is it empty?"""
        # with no move left, every carried colour must have need 0 right now
        for v in carried:
            code = 0
            for z in range(5):
                m = new[z].count(v)
                code += (m if m < 3 else 3) * SHIFT[z]
            if NEED[code]:
                return False
        # something must be removed at once, by the cells the move changed
        hit = False
        for yy in range(y, len(new[x])):
            if run_at(new, x, yy):
                hit = True
                break
        if not hit:
            ty = y if len(new[tx]) > y and tx != x else len(new[tx]) - 1
            if ty < 0 or not run_at(new, tx, min(ty, len(new[tx]) - 1)):
                return False
        return not any(settle(new))

    def last_move(cols):
        """k = 1: the one move left must empty the board. Returns it or None.
        A colour with need 1 must have a block carried by this very move."""
        req = []
        for v, code in need_by_colour(cols).items():
            t = NEED[code]
            if t > 1:
                return None
            if t == 1:
                req.append(v)
        if len(req) > 2:
            return None
        for x in range(5):
            col = cols[x]
            for y in range(len(col)):
                a = col[y]
                if x < 4:
                    nb = cols[x + 1]
                    new = list(cols)
                    if len(nb) > y:
                        b = nb[y]
                        if a != b and all(v == a or v == b for v in req):
                            new[x] = col[:y] + nb[y:y + 1] + col[y + 1:]
                            new[x + 1] = nb[:y] + col[y:y + 1] + nb[y + 1:]
                            if empties(new, x, y, x + 1, (a, b)):
                                return (x, y, 1)
                    elif all(v == a for v in req):
                        new[x] = col[:y] + col[y + 1:]
                        new[x + 1] = nb + col[y:y + 1]
                        if empties(new, x, y, x + 1, (a,)):
                            return (x, y, 1)
                if x > 0 and len(cols[x - 1]) <= y and all(v == a for v in req):
                    new = list(cols)
                    new[x] = col[:y] + col[y + 1:]
                    new[x - 1] = cols[x - 1] + col[y:y + 1]
                    if empties(new, x, y, x - 1, (a,)):
                        return (x, y, -1)
        return None

    def dfs(cols, k):
        if not any(cols):
            return False
        key = (cols, k)
        if key in dead:
            return False
        if k == 1:
            m = last_move(cols)
            if m is None:
                dead.add(key)
                return False
            path.append(m)
            return True
        if not bound_ok(cols, k):
            dead.add(key)
            return False
        for x in range(5):
            col = cols[x]
            for y in range(len(col)):
                if x < 4:
                    nb = cols[x + 1]
                    if y < len(nb):
                        if nb[y] == col[y]:
                            child = cols          # equal colours: nothing changes
                        else:
                            new = list(cols)
                            new[x] = col[:y] + nb[y:y + 1] + col[y + 1:]
                            new[x + 1] = nb[:y] + col[y:y + 1] + nb[y + 1:]
                            if run_at(new, x, y) or run_at(new, x + 1, y):
                                child = settle(new)
                            else:
                                child = tuple(new)
                    else:
                        child = child_after_move_into_empty(cols, x, y, x + 1)
                    path.append((x, y, 1))
                    if dfs(child, k - 1):
                        return True
                    path.pop()
                if x > 0 and len(cols[x - 1]) <= y:
                    child = child_after_move_into_empty(cols, x, y, x - 1)
                    path.append((x, y, -1))
                    if dfs(child, k - 1):
                        return True
                    path.pop()
        dead.add(key)
        return False

    if n >= 1 and dfs(start, n):
        return path
    return None


def main():
    data = sys.stdin.read().split()
    if not data:
        return
    t = list(map(int, data))
    n = t[0]
    i = 1
    cols = []
    for _ in range(5):
        c = []
        while t[i] != 0:
            c.append(t[i])
            i += 1
        i += 1
        cols.append(bytes(c))
    res = solve(tuple(cols), n)
    if res is None:
        sys.stdout.write("-1\n")
    else:
        sys.stdout.write("".join("%d %d %d\n" % m for m in res))


main()
