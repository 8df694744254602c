# Mayan puzzle with each column a string of colour letters, runs found by groupby.
from itertools import groupby
import sys

def read():
    nums = list(map(int, sys.stdin.read().split()))
    steps, i, cols = nums[0], 1, []
    for _ in range(5):
        j = nums.index(0, i)
        cols.append("".join(chr(96 + v) for v in nums[i:j]))
        i = j + 1
    return steps, cols

def runs(line):
    out, at = [], 0
    for key, grp in groupby(line):
        size = len(list(grp))
        if key != "." and size >= 3:
            out.extend(range(at, at + size))
        at += size
    return out

def reduce_board(cols):
    while True:
        cols = [c.replace(".", "") for c in cols]
        padded = [c.ljust(7, ".") for c in cols]
        hit = set()
        for x, c in enumerate(padded):
            hit.update((x, y) for y in runs(c))
        for y in range(7):
            hit.update((x, y) for x in runs("".join(p[y] for p in padded)))
        if not hit:
            return cols
        padded = [list(p) for p in padded]
        for x, y in hit:
            padded[x][y] = "."
        cols = ["".join(p) for p in padded]

def swapped(cols, x, y, d):
    grid = [list(c.ljust(7, ".")) for c in cols]
    grid[x][y], grid[x + d][y] = grid[x + d][y], grid[x][y]
    return reduce_board(["".join(g) for g in grid])

def hopeless(cols):
    joined = "".join(cols)
    return any(joined.count(ch) in (1, 2) for ch in set(joined))

def dfs(cols, left, acc):
    if all(c == "" for c in cols):
        return acc if left == 0 else None
    if left == 0 or hopeless(cols):
        return None
    for x in range(5):
        for y in range(len(cols[x])):
            if x < 4:
                found = dfs(swapped(cols, x, y, 1), left - 1, acc + [(x, y, 1)])
                if found is not None:
                    return found
            if x > 0 and len(cols[x - 1]) <= y:
                found = dfs(swapped(cols, x, y, -1), left - 1, acc + [(x, y, -1)])
                if found is not None:
                    return found
    return None

if __name__ == "__main__":
    n, board = read()
    answer = dfs(board, n, [])
    if answer is None:
        print(-1)
    else:
        for move in answer:
            print(*move)
