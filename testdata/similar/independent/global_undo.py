# Mayan puzzle: a global 5x7 grid, saved and restored around each move.
import sys

sys.setrecursionlimit(10000)

n = 0
grid = [[0] * 7 for _ in range(5)]
moves = []


def drop():
    for i in range(5):
        k = 0
        for j in range(7):
            if grid[i][j]:
                grid[i][k] = grid[i][j]
                k += 1
        for j in range(k, 7):
            grid[i][j] = 0


def remove():
    marks = [[False] * 7 for _ in range(5)]
    found = False
    for i in range(5):
        for j in range(7):
            c = grid[i][j]
            if c == 0:
                continue
            if i + 2 < 5 and grid[i + 1][j] == c and grid[i + 2][j] == c:
                marks[i][j] = marks[i + 1][j] = marks[i + 2][j] = True
                found = True
            if j + 2 < 7 and grid[i][j + 1] == c and grid[i][j + 2] == c:
                marks[i][j] = marks[i][j + 1] = marks[i][j + 2] = True
                found = True
    for i in range(5):
        for j in range(7):
            if marks[i][j]:
                grid[i][j] = 0
    return found


def done():
    return all(grid[i][0] == 0 for i in range(5))


def bad():
    cnt = [0] * 11
    for i in range(5):
        for j in range(7):
            cnt[grid[i][j]] += 1
    return any(cnt[c] == 1 or cnt[c] == 2 for c in range(1, 11))


def dfs(step):
    global grid
    if done():
        return step == n
    if step == n or bad():
        return False
    for i in range(5):
        for j in range(7):
            if grid[i][j] == 0:
                break
            for g in (1, -1):
                if i + g < 0 or i + g > 4:
                    continue
                if g == -1 and grid[i - 1][j]:
                    continue
                backup = [col[:] for col in grid]
                grid[i][j], grid[i + g][j] = grid[i + g][j], grid[i][j]
                drop()
                while remove():
                    drop()
                moves.append((i, j, g))
                if dfs(step + 1):
                    return True
                moves.pop()
                grid = backup
    return False


def main():
    global n
    data = sys.stdin.read().split()
    n = int(data[0])
    pos = 1
    for i in range(5):
        j = 0
        while data[pos] != "0":
            grid[i][j] = int(data[pos])
            j += 1
            pos += 1
        pos += 1
    if dfs(0):
        for m in moves:
            print(*m)
    else:
        print(-1)


main()
