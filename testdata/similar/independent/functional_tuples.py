"""Mayan puzzle with an immutable board: each column a tuple, bottom first."""
import sys


def settle(cols):
    cols = [list(c) for c in cols]
    while True:
        cols = [[v for v in c if v] for c in cols]
        kill = set()
        for x in range(5):
            for y in range(len(cols[x])):
                v = cols[x][y]
                if y + 2 < len(cols[x]) and cols[x][y + 1] == v and cols[x][y + 2] == v:
                    kill |= {(x, y), (x, y + 1), (x, y + 2)}
                if x + 2 < 5 and len(cols[x + 1]) > y and len(cols[x + 2]) > y:
                    if cols[x + 1][y] == v and cols[x + 2][y] == v:
                        kill |= {(x, y), (x + 1, y), (x + 2, y)}
        if not kill:
            return tuple(tuple(c) for c in cols)
        for x, y in kill:
            cols[x][y] = 0


def swap(cols, x, y, d):
    cols = [list(c) for c in cols]
    other = cols[x + d]
    while len(other) <= y:
        other.append(0)
    cols[x][y], other[y] = other[y], cols[x][y]
    return settle(cols)


def hopeless(cols):
    count = {}
    for c in cols:
        for v in c:
            count[v] = count.get(v, 0) + 1
    return any(k < 3 for k in count.values())


def solve(cols, left, path):
    if not any(cols):
        return path if left == 0 else None
    if left == 0 or hopeless(cols):
        return None
    for x in range(5):
        for y in range(len(cols[x])):
            if x < 4:
                found = solve(swap(cols, x, y, 1), left - 1, path + [(x, y, 1)])
                if found is not None:
                    return found
            if x > 0 and len(cols[x - 1]) <= y:
                found = solve(swap(cols, x, y, -1), left - 1, path + [(x, y, -1)])
                if found is not None:
                    return found
    return None


def read():
    it = iter(sys.stdin.read().split())
    n = int(next(it))
    cols = []
    for _ in range(5):
        col = []
        v = int(next(it))
        while v != 0:
            col.append(v)
            v = int(next(it))
        cols.append(tuple(col))
    return n, tuple(cols)


n, board = read()
result = solve(board, n, [])
if result is None:
    print(-1)
else:
    print("\n".join(f"{x} {y} {g}" for x, y, g in result))
