# TIME LIMIT EXCEEDED (Mayan, NOIP 2011): a plain exhaustive search in Python,
# correct under the literal rules of RULES.md (exactly n moves, equal-colour
# swaps count as moves, lexicographic order x, y, g = 1 before -1), but with no
# pruning at all: every legal (x, y, g) is tried at every level (left swaps too),
# no colour counting, no memo. Fine for a handful of blocks, hopeless for n = 5
# with ~30 blocks (about 50^5 settles).
import sys


def settle(g):
    while True:
        for x in range(5):                      # gravity
            col = [v for v in g[x] if v]
            g[x] = col + [0] * (7 - len(col))
        mark = [[False] * 7 for _ in range(5)]
        found = False
        for x in range(5):
            for y in range(7):
                v = g[x][y]
                if not v:
                    continue
                if x <= 2 and g[x + 1][y] == v and g[x + 2][y] == v:
                    mark[x][y] = mark[x + 1][y] = mark[x + 2][y] = True
                    found = True
                if y <= 4 and g[x][y + 1] == v and g[x][y + 2] == v:
                    mark[x][y] = mark[x][y + 1] = mark[x][y + 2] = True
                    found = True
        if not found:
            return
        for x in range(5):
            for y in range(7):
                if mark[x][y]:
                    g[x][y] = 0


def empty(g):
    return all(v == 0 for col in g for v in col)


def search(g, left, path):
    if left == 0:
        return empty(g)
    for x in range(5):
        for y in range(7):
            if g[x][y] == 0:
                continue
            for d in (1, -1):
                if not 0 <= x + d <= 4:
                    continue
                h = [col[:] for col in g]
                h[x][y], h[x + d][y] = h[x + d][y], h[x][y]
                settle(h)
                path.append((x, y, d))
                if search(h, left - 1, path):
                    return True
                path.pop()
    return False


def main():
    t = list(map(int, sys.stdin.read().split()))
    n = t[0]
    g = [[0] * 7 for _ in range(5)]
    i = 1
    for x in range(5):
        y = 0
        while t[i] != 0:
            g[x][y] = t[i]
            y += 1
            i += 1
        i += 1
    path = []
    if search(g, n, path):
        for m in path:
            print(*m)
    else:
        print(-1)


main()
