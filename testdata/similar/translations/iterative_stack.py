# Line-by-line translation of testdata/similar/independent/iterative_stack.cpp into Python.
import sys


def settle(g):
    while True:
        for i in range(5):
            col = [v for v in g[i] if v != 0]
            g[i] = col + [0] * (7 - len(col))
        doomed = set()
        for i in range(0, 5):
            for j in range(0, 7):
                v = g[i][j]
                if not v: continue
                r = i
                while r < 5 and g[r][j] == v: r += 1
                if r - i >= 3:
                    for k in range(i, r): doomed.add((k, j))
                u = j
                while u < 7 and g[i][u] == v: u += 1
                if u - j >= 3:
                    for k in range(j, u): doomed.add((i, k))
        if not doomed: return g
        for p in doomed: g[p[0]][p[1]] = 0


def impossible(g):
    tally = {}
    for col in g:
        for v in col:
            if v: tally[v] = tally.get(v, 0) + 1
    for kv in tally.items():
        if kv[1] < 3: return True
    return False


class Frame:
    def __init__(self, g, nxt, i, j, d):
        self.g = g
        self.next = nxt  # next move to try, encoded as (i * 7 + j) * 2 + side
        self.i = i; self.j = j; self.d = d


def main():
    data = iter(sys.stdin.read().split())
    n = int(next(data))
    start = [[0] * 7 for _ in range(5)]
    for i in range(0, 5):
        j = 0
        v = int(next(data))
        while v != 0:
            start[i][j] = v; j += 1
            v = int(next(data))
    st = []
    st.append(Frame(start, 0, 0, 0, 0))
    while st:
        f = st[-1]
        clear = True
        for col in f.g:
            if col[0]: clear = False
        if clear and len(st) - 1 == n:
            for k in range(1, len(st)): print("%d %d %d" % (st[k].i, st[k].j, st[k].d))
            return 0
        if clear or len(st) - 1 == n or impossible(f.g) or f.next >= 70:
            st.pop()
            continue
        code = f.next; f.next += 1
        side = code % 2; cell = code // 2
        i = cell // 7; j = cell % 7; d = -1 if side else 1
        if not f.g[i][j] or i + d < 0 or i + d > 4: continue
        if d < 0 and f.g[i + d][j]: continue
        h = [list(col) for col in f.g]
        h[i][j], h[i + d][j] = h[i + d][j], h[i][j]
        st.append(Frame(settle(h), 0, i, j, d))
    print("-1")
    return 0


main()
