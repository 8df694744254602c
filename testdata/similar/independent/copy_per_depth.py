import sys


def fall(b):
    for x in range(5):
        col = [v for v in b[x] if v]
        b[x] = col + [0] * (7 - len(col))


def crush(b):
    dead = [[0] * 7 for _ in range(5)]
    hit = False
    for x in range(5):
        for y in range(7):
            v = b[x][y]
            if not v:
                continue
            if x < 3 and b[x + 1][y] == v and b[x + 2][y] == v:
                dead[x][y] = dead[x + 1][y] = dead[x + 2][y] = 1
                hit = True
            if y < 5 and b[x][y + 1] == v and b[x][y + 2] == v:
                dead[x][y] = dead[x][y + 1] = dead[x][y + 2] = 1
                hit = True
    for x in range(5):
        for y in range(7):
            if dead[x][y]:
                b[x][y] = 0
    return hit


def dfs(b, k, n, out):
    if all(b[x][0] == 0 for x in range(5)):
        return k == n
    if k == n:
        return False
    cnt = [0] * 11
    for x in range(5):
        for y in range(7):
            cnt[b[x][y]] += 1
    for c in range(1, 11):
        if cnt[c] == 1 or cnt[c] == 2:
            return False
    for x in range(5):
        for y in range(7):
            if b[x][y] == 0:
                break
            if x < 4:
                nb = [col[:] for col in b]
                nb[x][y], nb[x + 1][y] = nb[x + 1][y], nb[x][y]
                fall(nb)
                while crush(nb):
                    fall(nb)
                out.append((x, y, 1))
                if dfs(nb, k + 1, n, out):
                    return True
                out.pop()
            if x > 0 and b[x - 1][y] == 0:
                nb = [col[:] for col in b]
                nb[x - 1][y], nb[x][y] = nb[x][y], 0
                fall(nb)
                while crush(nb):
                    fall(nb)
                out.append((x, y, -1))
                if dfs(nb, k + 1, n, out):
                    return True
                out.pop()
    return False


def main():
    nums = list(map(int, sys.stdin.read().split()))
    n = nums[0]
    b = [[0] * 7 for _ in range(5)]
    p = 1
    for x in range(5):
        y = 0
        while nums[p]:
            b[x][y] = nums[p]
            y += 1
            p += 1
        p += 1
    out = []
    if dfs(b, 0, n, out):
        for m in out:
            print(m[0], m[1], m[2])
    else:
        print(-1)


if __name__ == "__main__":
    main()
