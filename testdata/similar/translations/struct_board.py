# Line-by-line translation of testdata/similar/independent/struct_board.cpp into Python.
import sys


class Move:
    def __init__(self, x, y, g):
        self.x = x; self.y = y; self.g = g


class Board:
    def __init__(self):
        self.c = [[0] * 7 for _ in range(5)]

    def drop(self):
        for i in range(5):
            out = [0] * 7
            k = 0
            for v in self.c[i]:
                if v != 0: out[k] = v; k += 1
            self.c[i] = out

    def vanish(self):
        gone = [[False] * 7 for _ in range(5)]
        changed = False
        for y in range(0, 7):
            run = 1
            for x in range(1, 6):
                if x < 5 and self.c[x][y] != 0 and self.c[x][y] == self.c[x - 1][y]:
                    run += 1; continue
                if run >= 3:
                    for t in range(x - run, x): gone[t][y] = True
                    changed = True
                run = 1
        for x in range(0, 5):
            run = 1
            for y in range(1, 8):
                if y < 7 and self.c[x][y] != 0 and self.c[x][y] == self.c[x][y - 1]:
                    run += 1; continue
                if run >= 3:
                    for t in range(y - run, y): gone[x][t] = True
                    changed = True
                run = 1
        for x in range(0, 5):
            for y in range(0, 7):
                if gone[x][y]: self.c[x][y] = 0
        return changed

    def stabilise(self):
        self.drop()
        while self.vanish(): self.drop()

    def cleared(self):
        for col in self.c:
            if col[0]: return False
        return True

    def hopeless(self):
        seen = [0] * 11
        for col in self.c:
            for v in col:
                if v: seen[v] += 1
        for k in range(1, 11):
            if seen[k] > 0 and seen[k] < 3: return True
        return False


steps = 0
path = []


def search(b):
    if b.cleared(): return len(path) == steps
    if len(path) == steps or b.hopeless(): return False
    for x in range(0, 5):
        for y in range(0, 7):
            if not b.c[x][y]: break
            for g in (1, -1):
                nx = x + g
                if nx < 0 or nx > 4: continue
                if g == -1 and b.c[nx][y]: continue
                nxt = Board()
                nxt.c = [list(col) for col in b.c]
                nxt.c[x][y], nxt.c[nx][y] = nxt.c[nx][y], nxt.c[x][y]
                nxt.stabilise()
                path.append(Move(x, y, g))
                if search(nxt): return True
                path.pop()
    return False


def main():
    global steps
    start = Board()
    data = iter(sys.stdin.read().split())
    steps = int(next(data))
    for x in range(0, 5):
        y = 0
        v = int(next(data))
        while v:
            start.c[x][y] = v; y += 1
            v = int(next(data))
    if search(start):
        for m in path: print(m.x, m.y, m.g)
    else:
        print(-1)


main()
