# Line-by-line translation of testdata/similar/outline/globals.cpp into Python.
import sys

n = 0
g = [[0] * 7 for _ in range(5)]
saved = [None] * 6
ax = [0] * 6; ay = [0] * 6; ad = [0] * 6


def drop():
    for x in range(0, 5):
        h = 0
        for y in range(0, 7):
            if g[x][y] != 0:
                c = g[x][y]
                g[x][y] = 0
                g[x][h] = c; h += 1


def eliminate():
    mark = [[False] * 7 for _ in range(5)]
    any_ = False
    for x in range(0, 5):
        for y in range(0, 7):
            if not g[x][y]: continue
            if x + 2 < 5 and g[x + 1][y] == g[x][y] and g[x + 2][y] == g[x][y]:
                mark[x][y] = mark[x + 1][y] = mark[x + 2][y] = True
                any_ = True
            if y + 2 < 7 and g[x][y + 1] == g[x][y] and g[x][y + 2] == g[x][y]:
                mark[x][y] = mark[x][y + 1] = mark[x][y + 2] = True
                any_ = True
    for x in range(0, 5):
        for y in range(0, 7):
            if mark[x][y]: g[x][y] = 0
    return any_


def settle():
    drop()
    while eliminate(): drop()


def empty():
    for x in range(0, 5):
        if g[x][0]: return False
    return True


def hopeless():
    cnt = [0] * 11
    for x in range(0, 5):
        for y in range(0, 7): cnt[g[x][y]] += 1
    for c in range(1, 11):
        if cnt[c] == 1 or cnt[c] == 2: return True
    return False


def dfs(step):
    if step == n: return empty()
    if hopeless(): return False
    saved[step] = [list(col) for col in g]
    for x in range(0, 5):
        y = 0
        while y < 7 and g[x][y]:
            if x < 4 and g[x + 1][y] != g[x][y]:
                g[x][y], g[x + 1][y] = g[x + 1][y], g[x][y]
                settle()
                ax[step] = x; ay[step] = y; ad[step] = 1
                if dfs(step + 1): return True
                g[:] = [list(col) for col in saved[step]]
            if x > 0 and g[x - 1][y] == 0:
                g[x][y], g[x - 1][y] = g[x - 1][y], g[x][y]
                settle()
                ax[step] = x; ay[step] = y; ad[step] = -1
                if dfs(step + 1): return True
                g[:] = [list(col) for col in saved[step]]
            y += 1
    return False


def main():
    global n
    data = iter(sys.stdin.read().split())
    n = int(next(data))
    for x in range(0, 5):
        y = 0
        c = int(next(data))
        while c != 0:
            g[x][y] = c; y += 1
            c = int(next(data))
    if dfs(0):
        for i in range(0, n): print(ax[i], ay[i], ad[i])
    else:
        print(-1)
    return 0


main()
