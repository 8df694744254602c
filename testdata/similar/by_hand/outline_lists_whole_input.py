import sys

tokens = sys.stdin.read().split()
cursor = 0


def next_int():
    global cursor
    cursor += 1
    return int(tokens[cursor - 1])


def fix(grid):
    # fall, then remove lines of three, until nothing changes
    while True:
        for c in grid:
            kept = [v for v in c if v]
            c[:] = kept + [0] * (7 - len(kept))
        gone = set()
        for i in range(5):
            for j in range(7):
                v = grid[i][j]
                if v == 0:
                    continue
                right = i + 2 < 5 and grid[i + 1][j] == v and grid[i + 2][j] == v
                if right:
                    gone.update([(i, j), (i + 1, j), (i + 2, j)])
                up = j + 2 < 7 and grid[i][j + 1] == v and grid[i][j + 2] == v
                if up:
                    gone.update([(i, j), (i, j + 1), (i, j + 2)])
        if not gone:
            return
        for i, j in gone:
            grid[i][j] = 0


def no_hope(grid):
    tally = [0] * 11
    for c in grid:
        for v in c:
            tally[v] += 1
    return any(tally[v] in (1, 2) for v in range(1, 11))


def try_move(grid, i, j, d, depth, n, out):
    g2 = [c[:] for c in grid]
    g2[i][j], g2[i + d][j] = g2[i + d][j], g2[i][j]
    fix(g2)
    out.append((i, j, d))
    if dfs(g2, depth + 1, n, out):
        return True
    out.pop()
    return False


def dfs(grid, depth, n, out):
    if depth == n:
        return all(c[0] == 0 for c in grid)
    if no_hope(grid):
        return False
    for i in range(5):
        for j in range(7):
            if grid[i][j] == 0:
                break
            if i < 4 and grid[i + 1][j] != grid[i][j] and try_move(grid, i, j, 1, depth, n, out):
                return True
            if i > 0 and grid[i - 1][j] == 0 and try_move(grid, i, j, -1, depth, n, out):
                return True
    return False


n = next_int()
grid = []
for _ in range(5):
    col = []
    v = next_int()
    while v != 0:
        col.append(v)
        v = next_int()
    grid.append(col + [0] * (7 - len(col)))
out = []
found = dfs(grid, 0, n, out)
print("\n".join("%d %d %d" % m for m in out) if found else -1)
