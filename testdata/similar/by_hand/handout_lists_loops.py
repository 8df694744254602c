import sys

COLS, ROWS = 5, 7


def pad(board):
    out = []
    for col in board:
        out.append(list(col) + [0] * (ROWS - len(col)))
    return out


def compact(board):
    res = []
    for col in board:
        kept = []
        for v in col:
            if v != 0:
                kept.append(v)
        res.append(kept)
    return res


def remove_lines(board):
    cells = pad(board)
    marked = []
    for i in range(COLS):
        for j in range(ROWS):
            v = cells[i][j]
            if not v:
                continue
            if j + 2 < ROWS:
                up1 = cells[i][j + 1]
                up2 = cells[i][j + 2]
                if up1 == v and up2 == v:
                    marked += [(i, j), (i, j + 1), (i, j + 2)]
            if i + 2 < COLS:
                r1 = cells[i + 1][j]
                r2 = cells[i + 2][j]
                if r1 == v and r2 == v:
                    marked += [(i, j), (i + 1, j), (i + 2, j)]
    for i, j in marked:
        cells[i][j] = 0
    return cells, len(marked) > 0


def stabilise(board):
    board = compact(board)
    board, again = remove_lines(board)
    while again:
        board = compact(board)
        board, again = remove_lines(board)
    return compact(board)


def solve(board, level, total, trail):
    if level == total:
        for col in board:
            if col:
                return False
        return True
    for i in range(COLS):
        for j in range(len(board[i])):
            for step in (1, -1):
                k = i + step
                if k < 0 or k >= COLS:
                    continue
                cells = pad(board)
                tmp = cells[i][j]
                cells[i][j] = cells[k][j]
                cells[k][j] = tmp
                trail.append((i, j, step))
                nxt = stabilise(cells)
                found = solve(nxt, level + 1, total, trail)
                if found:
                    return True
                trail.pop()
    return False


total = int(input())
board = []
for _ in range(COLS):
    nums = []
    for tok in input().split():
        if tok == "0":
            break
        nums.append(int(tok))
    board.append(nums)
trail = []
if not solve(board, 0, total, trail):
    print(-1)
else:
    for i, j, step in trail:
        print(i, j, step)
