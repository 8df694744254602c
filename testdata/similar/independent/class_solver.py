"""Mayan puzzle: a Solver class over a tuple-of-tuples board."""
import sys


class Solver:
    COLS, ROWS = 5, 7

    def __init__(self, moves, columns):
        self.moves = moves
        self.start = tuple(tuple(col) for col in columns)
        self.trail = []

    @staticmethod
    def fall(cols):
        return [[v for v in col if v] for col in cols]

    def crush(self, cols):
        while True:
            cols = self.fall(cols)
            marked = set()
            for c in range(self.COLS):
                for r in range(len(cols[c])):
                    colour = cols[c][r]
                    if r + 2 < len(cols[c]) and cols[c][r + 1] == colour == cols[c][r + 2]:
                        marked.update({(c, r), (c, r + 1), (c, r + 2)})
                    if c + 2 < self.COLS and all(len(cols[c + k]) > r and cols[c + k][r] == colour for k in (1, 2)):
                        marked.update({(c, r), (c + 1, r), (c + 2, r)})
            if not marked:
                return cols
            for c, r in marked:
                cols[c][r] = 0

    def stuck(self, cols):
        counts = {}
        for col in cols:
            for v in col:
                counts[v] = counts.get(v, 0) + 1
        return any(k < 3 for k in counts.values())

    def explore(self, cols):
        if not any(cols):
            return len(self.trail) == self.moves
        if len(self.trail) == self.moves or self.stuck(cols):
            return False
        for c in range(self.COLS):
            for r in range(len(cols[c])):
                for side in (1, -1):
                    d = c + side
                    if not 0 <= d < self.COLS:
                        continue
                    if side == -1 and len(cols[d]) > r:
                        continue
                    grid = [list(col) + [0] * (self.ROWS - len(col)) for col in cols]
                    grid[c][r], grid[d][r] = grid[d][r], grid[c][r]
                    self.trail.append((c, r, side))
                    if self.explore(self.crush(grid)):
                        return True
                    self.trail.pop()
        return False

    def solve(self):
        return self.explore([list(col) for col in self.start])


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    pos = 1
    columns = []
    for _ in range(5):
        col = []
        while data[pos] != "0":
            col.append(int(data[pos]))
            pos += 1
        pos += 1
        columns.append(col)
    solver = Solver(n, columns)
    if solver.solve():
        print("\n".join("%d %d %d" % t for t in solver.trail))
    else:
        print(-1)


main()
