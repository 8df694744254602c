# Line-by-line translation of testdata/similar/independent/lambda_solver.cpp into Python.
import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    start = ["0"] * 35
    p = 1
    for c in range(0, 5):
        r = 0
        while int(data[p]):
            start[c * 7 + r] = data[p]; r += 1; p += 1
        p += 1
    start = "".join(start)
    get = lambda s, c, r: s[c * 7 + r]

    def tidy(s):
        again = True
        while again:
            for c in range(0, 5):
                col = ""
                for r in range(0, 7):
                    if get(s, c, r) != "0": col += get(s, c, r)
                col = col.ljust(7, "0")
                s = s[:c * 7] + col + s[c * 7 + 7:]
            hit = []
            for i in range(0, 35):
                c = i // 7; r = i % 7
                v = s[i]
                if v == "0": continue
                if c <= 2 and get(s, c + 1, r) == v and get(s, c + 2, r) == v:
                    for k in (0, 7, 14): hit.append(i + k)
                if r <= 4 and get(s, c, r + 1) == v and get(s, c, r + 2) == v:
                    for k in (0, 1, 2): hit.append(i + k)
            again = len(hit) != 0
            t = list(s)
            for i in hit: t[i] = "0"
            s = "".join(t)
        return s

    def blocked(s):
        for ch in "123456789:":
            k = 0
            for x in s: k += x == ch
            if k == 1 or k == 2: return True
        return False

    trail = []

    def rec(s):
        if s == "0" * 35: return len(trail) == n
        if len(trail) == n or blocked(s): return False
        for c in range(0, 5):
            r = 0
            while r < 7 and get(s, c, r) != "0":
                for d in (1, -1):
                    if c + d < 0 or c + d > 4: continue
                    if d == -1 and get(s, c - 1, r) != "0": continue
                    t = list(s)
                    t[c * 7 + r], t[(c + d) * 7 + r] = t[(c + d) * 7 + r], t[c * 7 + r]
                    trail.append((c, r, d))
                    if rec(tidy("".join(t))): return True
                    trail.pop()
                r += 1
        return False

    if not rec(start):
        print("-1")
        return
    for c, r, d in trail: print(c, r, d)


main()
