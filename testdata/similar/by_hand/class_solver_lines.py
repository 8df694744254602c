import sys
from collections import Counter


def beside(grid, c, r, colour, width):
    if c + 2 >= width:
        return False
    near = grid[c + 1]
    far = grid[c + 2]
    return len(near) > r and len(far) > r and near[r] == colour and far[r] == colour


class Puzzle:
    WIDTH, HEIGHT = 5, 7

    def __init__(self, limit, stacks):
        self.path = []
        self.limit = limit
        self.first = [list(s) for s in stacks]

    def settle(self, grid):
        while True:
            grid = [[v for v in stack if v] for stack in grid]
            doomed = set()
            for c in range(self.WIDTH):
                height = len(grid[c])
                for r in range(height):
                    colour = grid[c][r]
                    if beside(grid, c, r, colour, self.WIDTH):
                        doomed |= {(c, r), (c + 1, r), (c + 2, r)}
                    up = r + 2 < height
                    if up and grid[c][r + 1] == colour and grid[c][r + 2] == colour:
                        doomed |= {(c, r), (c, r + 1), (c, r + 2)}
            if not doomed:
                return grid
            for c, r in doomed:
                grid[c][r] = 0

    def walk(self, grid):
        used = len(self.path)
        if not any(grid):
            return used == self.limit
        if used == self.limit:
            return False
        if min(Counter(v for stack in grid for v in stack).values()) < 3:
            return False
        for c in range(self.WIDTH):
            for r in range(len(grid[c])):
                for side in (1, -1):
                    other = c + side
                    if other < 0 or other >= self.WIDTH:
                        continue
                    if side == -1 and r < len(grid[other]):
                        continue
                    padded = [stack + [0] * (self.HEIGHT - len(stack)) for stack in grid]
                    padded[other][r], padded[c][r] = padded[c][r], padded[other][r]
                    self.path.append([c, r, side])
                    after = self.settle(padded)
                    if self.walk(after):
                        return True
                    self.path.pop()
        return False

    def run(self):
        return self.walk([list(s) for s in self.first])


def read_stacks():
    words = []
    for line in sys.stdin:
        words.extend(line.split())
    limit = int(words[0])
    stacks = []
    k = 1
    while len(stacks) < 5:
        stack = []
        while words[k] != "0":
            stack.append(int(words[k]))
            k += 1
        stacks.append(stack)
        k += 1
    return limit, stacks


def main():
    limit, stacks = read_stacks()
    p = Puzzle(limit, stacks)
    found = p.run()
    print("\n".join("%d %d %d" % tuple(m) for m in p.path) if found else -1)


main()
