# The lesson's handout, step by step: read_board, fall, clear_runs, settle,
# is_empty, dfs; right before left, x then y.
import sys


def read_board():
    data = sys.stdin.read().split()
    n = int(data[0])
    board, pos = [], 1
    for _ in range(5):
        col = []
        while data[pos] != "0":
            col.append(int(data[pos]))
            pos += 1
        pos += 1
        board.append(col)
    return n, board


def fall(board):
    return [[c for c in col if c] for col in board]


def clear_runs(board):
    grid = [col + [0] * (7 - len(col)) for col in board]
    doomed = set()
    for x in range(5):
        for y in range(7):
            c = grid[x][y]
            if c == 0:
                continue
            if x + 2 < 5 and grid[x + 1][y] == c == grid[x + 2][y]:
                doomed |= {(x, y), (x + 1, y), (x + 2, y)}
            if y + 2 < 7 and grid[x][y + 1] == c == grid[x][y + 2]:
                doomed |= {(x, y), (x, y + 1), (x, y + 2)}
    for x, y in doomed:
        grid[x][y] = 0
    return grid, bool(doomed)


def settle(board):
    while True:
        board = fall(board)
        board, changed = clear_runs(board)
        if not changed:
            return fall(board)


def is_empty(board):
    return all(len(col) == 0 for col in board)


def dfs(board, depth, n, moves):
    if depth == n:
        return is_empty(board)
    for x in range(5):
        for y in range(len(board[x])):
            for g in (1, -1):
                to = x + g
                if not 0 <= to < 5:
                    continue
                grid = [col + [0] * (7 - len(col)) for col in board]
                grid[x][y], grid[to][y] = grid[to][y], grid[x][y]
                moves.append((x, y, g))
                if dfs(settle(grid), depth + 1, n, moves):
                    return True
                moves.pop()
    return False


def main():
    n, board = read_board()
    moves = []
    if dfs(board, 0, n, moves):
        print("\n".join("%d %d %d" % m for m in moves))
    else:
        print(-1)


main()
