# Mayan puzzle from the outline, with a tuple board and recursion.
import sys

sys.setrecursionlimit(10000)


def fall(cols):
    return [[c for c in col if c] + [0] * (7 - sum(1 for c in col if c)) for col in cols]


def vanish(cols):
    gone = [[False] * 7 for _ in range(5)]
    hit = False
    for i in range(5):
        for j in range(7):
            v = cols[i][j]
            if not v:
                continue
            if i <= 2 and cols[i + 1][j] == v and cols[i + 2][j] == v:
                gone[i][j] = gone[i + 1][j] = gone[i + 2][j] = True
                hit = True
            if j <= 4 and cols[i][j + 1] == v and cols[i][j + 2] == v:
                gone[i][j] = gone[i][j + 1] = gone[i][j + 2] = True
                hit = True
    if not hit:
        return cols, False
    return [[0 if gone[i][j] else cols[i][j] for j in range(7)] for i in range(5)], True


def after_move(cols, i, j, d):
    cols = [list(col) for col in cols]
    cols[i][j], cols[i + d][j] = cols[i + d][j], cols[i][j]
    cols = fall(cols)
    while True:
        cols, hit = vanish(cols)
        if not hit:
            return cols
        cols = fall(cols)


def doomed(cols):
    tally = {}
    for col in cols:
        for v in col:
            if v:
                tally[v] = tally.get(v, 0) + 1
    return any(t < 3 for t in tally.values())


def solve(cols, k, n, path):
    if k == n:
        return not any(col[0] for col in cols)
    if doomed(cols):
        return False
    for i in range(5):
        for j in range(7):
            if not cols[i][j]:
                break
            if i < 4 and cols[i + 1][j] != cols[i][j]:
                path.append("%d %d 1" % (i, j))
                if solve(after_move(cols, i, j, 1), k + 1, n, path):
                    return True
                path.pop()
            if i > 0 and not cols[i - 1][j]:
                path.append("%d %d -1" % (i, j))
                if solve(after_move(cols, i, j, -1), k + 1, n, path):
                    return True
                path.pop()
    return False


data = sys.stdin.read().split()
n = int(data[0])
pos = 1
cols = []
for _ in range(5):
    col = []
    while data[pos] != "0":
        col.append(int(data[pos]))
        pos += 1
    pos += 1
    cols.append(col + [0] * (7 - len(col)))
path = []
print("\n".join(path) if solve(cols, 0, n, path) else -1)
