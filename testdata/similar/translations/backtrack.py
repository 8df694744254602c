# Line-by-line translation of reference/mayan/accepted/backtrack.cpp into Python.
import sys

n = 0
bd = [[[0] * 7 for _ in range(5)] for _ in range(32)]
ans = [[0, 0, 0] for _ in range(32)]


def fall(b):
    for x in range(0, 5):
        h = 0
        for y in range(0, 7):
            if b[x][y]:
                c = b[x][y]; b[x][y] = 0; b[x][h] = c; h += 1


def clear_runs(b):
    mk = [[False] * 7 for _ in range(5)]
    any_ = False
    for x in range(0, 5):
        for y in range(0, 7):
            c = b[x][y]
            if not c:
                continue
            if x <= 2 and b[x + 1][y] == c and b[x + 2][y] == c:
                mk[x][y] = mk[x + 1][y] = mk[x + 2][y] = True; any_ = True
            if y <= 4 and b[x][y + 1] == c and b[x][y + 2] == c:
                mk[x][y] = mk[x][y + 1] = mk[x][y + 2] = True; any_ = True
    if not any_:
        return False
    for x in range(0, 5):
        for y in range(0, 7):
            if mk[x][y]:
                b[x][y] = 0
    return True


def settle(b):
    fall(b)
    while clear_runs(b):
        fall(b)


def dead(b):
    cnt = [0] * 11
    for x in range(0, 5):
        y = 0
        while y < 7 and b[x][y]:
            cnt[b[x][y]] += 1
            y += 1
    for c in range(1, 11):
        if cnt[c] == 1 or cnt[c] == 2:
            return True
    return False


def empty(b):
    for x in range(0, 5):
        if b[x][0]:
            return False
    return True


def dfs(d):
    b = bd[d]
    if empty(b):
        return d == n
    if d == n:
        return False
    if dead(b):
        return False
    nb = bd[d + 1]
    for x in range(0, 5):
        y = 0
        while y < 7 and b[x][y]:
            if x < 4:
                for i in range(5): nb[i][:] = b[i]
                t = nb[x][y]; nb[x][y] = nb[x + 1][y]; nb[x + 1][y] = t
                settle(nb)
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = 1
                if dfs(d + 1):
                    return True
            if x > 0 and b[x - 1][y] == 0:
                for i in range(5): nb[i][:] = b[i]
                nb[x - 1][y] = nb[x][y]; nb[x][y] = 0
                settle(nb)
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = -1
                if dfs(d + 1):
                    return True
            y += 1
    return False


def main():
    global n
    data = sys.stdin.read().split()
    n = int(data[0])
    if n < 0 or n > 30:
        print("-1"); return
    p = 1
    for x in range(0, 5):
        y = 0
        while p < len(data) and int(data[p]) != 0:
            bd[0][x][y] = int(data[p]); y += 1; p += 1
        p += 1
    if dfs(0):
        for i in range(0, n):
            print("%d %d %d" % (ans[i][0], ans[i][1], ans[i][2]))
    else:
        print("-1")


main()
