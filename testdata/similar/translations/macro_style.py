import sys

n = 0
mp = [[[0] * 7 for _ in range(5)] for _ in range(10)]
st = [[0, 0, 0] for _ in range(10)]


def down(a):
    for i in range(0, 5):
        p = 0
        for j in range(0, 7):
            if a[i][j]:
                a[i][p] = a[i][j]
                p += 1
        for j in range(p, 7):
            a[i][j] = 0


def clr(a):
    f = [[False] * 7 for _ in range(5)]
    flag = False
    for i in range(0, 5):
        for j in range(0, 7):
            if not a[i][j]:
                continue
            if i < 3 and a[i + 1][j] == a[i][j] and a[i + 2][j] == a[i][j]:
                f[i][j] = f[i + 1][j] = f[i + 2][j] = flag = True
            if j < 5 and a[i][j + 1] == a[i][j] and a[i][j + 2] == a[i][j]:
                f[i][j] = f[i][j + 1] = f[i][j + 2] = flag = True
    for i in range(0, 5):
        for j in range(0, 7):
            if f[i][j]:
                a[i][j] = 0
    return flag


def ok(a):
    for i in range(0, 5):
        if a[i][0]:
            return False
    return True


def cut(a):
    c = [0] * 11
    for i in range(0, 5):
        for j in range(0, 7):
            c[a[i][j]] += 1
    for k in range(1, 11):
        if c[k] == 1 or c[k] == 2:
            return True
    return False


def dfs(d):
    if ok(mp[d]):
        return d == n
    if d >= n or cut(mp[d]):
        return False
    for i in range(0, 5):
        for j in range(0, 7):
            if not mp[d][i][j]:
                break
            if i + 1 < 5:
                mp[d + 1] = [col[:] for col in mp[d]]
                mp[d + 1][i][j], mp[d + 1][i + 1][j] = mp[d + 1][i + 1][j], mp[d + 1][i][j]
                down(mp[d + 1])
                while clr(mp[d + 1]):
                    down(mp[d + 1])
                st[d] = [i, j, 1]
                if dfs(d + 1):
                    return True
            if i > 0 and not mp[d][i - 1][j]:
                mp[d + 1] = [col[:] for col in mp[d]]
                mp[d + 1][i][j], mp[d + 1][i - 1][j] = mp[d + 1][i - 1][j], mp[d + 1][i][j]
                down(mp[d + 1])
                while clr(mp[d + 1]):
                    down(mp[d + 1])
                st[d] = [i, j, -1]
                if dfs(d + 1):
                    return True
    return False


def main():
    global n
    data = iter(sys.stdin.read().split())
    n = int(next(data))
    for i in range(0, 5):
        j = 0
        x = int(next(data))
        while x:
            mp[0][i][j] = x
            j += 1
            x = int(next(data))
    if not dfs(0):
        print(-1)
        return
    for i in range(0, n):
        print(st[i][0], st[i][1], st[i][2])


main()
