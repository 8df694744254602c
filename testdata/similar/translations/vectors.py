# Line-by-line translation of testdata/similar/outline/vectors.cpp into Python.
import sys

N = 0
answer = []


def gravity(g):
    for i in range(len(g)):
        keep = []
        for v in g[i]:
            if v: keep.append(v)
        keep += [0] * (7 - len(keep))
        g[i] = keep


def vanish(g):
    hit = [[False] * 7 for _ in range(5)]
    changed = False
    for i in range(0, 5):
        for j in range(0, 7):
            v = g[i][j]
            if v == 0: continue
            if i < 3 and g[i + 1][j] == v and g[i + 2][j] == v:
                for k in range(0, 3): hit[i + k][j] = True
                changed = True
            if j < 5 and g[i][j + 1] == v and g[i][j + 2] == v:
                for k in range(0, 3): hit[i][j + k] = True
                changed = True
    for i in range(0, 5):
        for j in range(0, 7):
            if hit[i][j]: g[i][j] = 0
    return changed


def bad(g):
    seen = {}
    for col in g:
        for v in col:
            if v: seen[v] = seen.get(v, 0) + 1
    for p in seen.items():
        if p[1] < 3: return True
    return False


def go(g, depth):
    if depth == N:
        for i in range(0, 5):
            if g[i][0] != 0: return False
        return True
    if bad(g): return False
    for i in range(0, 5):
        for j in range(0, 7):
            if g[i][j] == 0: break
            for d in (1, -1):
                ni = i + d
                if ni < 0 or ni > 4: continue
                if d == 1 and g[ni][j] == g[i][j]: continue
                if d == -1 and g[ni][j] != 0: continue
                h = [list(col) for col in g]
                h[i][j], h[ni][j] = h[ni][j], h[i][j]
                gravity(h)
                while vanish(h): gravity(h)
                answer.append((i, j, d))
                if go(h, depth + 1): return True
                answer.pop()
    return False


def main():
    global N
    data = iter(sys.stdin.read().split())
    N = int(next(data))
    g = [[0] * 7 for _ in range(5)]
    for i in range(0, 5):
        j = 0
        while True:
            v = int(next(data))
            if not v: break
            g[i][j] = v
            j += 1
    if not go(g, 0):
        print("-1")
        return 0
    for m in answer: print("%d %d %d" % (m[0], m[1], m[2]))


main()
