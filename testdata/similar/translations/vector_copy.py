# Mayan puzzle: the board is a list of columns, copied for every move.
import sys

total_moves = 0
answer = []


def gravity(b):
    out = [[0] * 7 for _ in range(5)]
    for col in range(0, 5):
        k = 0
        for row in range(0, 7):
            if b[col][row] != 0:
                out[col][k] = b[col][row]
                k += 1
    return out


def eliminate(b):
    gone = [[False] * 7 for _ in range(5)]
    changed = False
    for col in range(0, 5):
        for row in range(0, 7):
            v = b[col][row]
            if v == 0:
                continue
            if row + 2 < 7 and b[col][row + 1] == v and b[col][row + 2] == v:
                gone[col][row] = gone[col][row + 1] = gone[col][row + 2] = True
            if col + 2 < 5 and b[col + 1][row] == v and b[col + 2][row] == v:
                gone[col][row] = gone[col + 1][row] = gone[col + 2][row] = True
    for col in range(0, 5):
        for row in range(0, 7):
            if gone[col][row]:
                b[col][row] = 0
                changed = True
    return changed


def apply_move(b, col, row, d):
    b = [c[:] for c in b]
    b[col][row], b[col + d][row] = b[col + d][row], b[col][row]
    b = gravity(b)
    while eliminate(b):
        b = gravity(b)
    return b


def board_empty(b):
    for column in b:
        if column[0] != 0:
            return False
    return True


def has_lonely_colour(b):
    seen = [0] * 11
    for column in b:
        for v in column:
            seen[v] += 1
    for c in range(1, 11):
        if seen[c] > 0 and seen[c] < 3:
            return True
    return False


def search(b, depth):
    if board_empty(b):
        return depth == total_moves
    if depth == total_moves or has_lonely_colour(b):
        return False
    for col in range(0, 5):
        row = 0
        while row < 7 and b[col][row] != 0:
            if col + 1 < 5:
                answer.append((col, row, 1))
                if search(apply_move(b, col, row, 1), depth + 1):
                    return True
                answer.pop()
            if col > 0 and b[col - 1][row] == 0:
                answer.append((col, row, -1))
                if search(apply_move(b, col, row, -1), depth + 1):
                    return True
                answer.pop()
            row += 1
    return False


def main():
    global total_moves
    data = iter(sys.stdin.read().split())
    total_moves = int(next(data))
    start = [[0] * 7 for _ in range(5)]
    for col in range(0, 5):
        row = 0
        v = int(next(data))
        while v != 0:
            start[col][row] = v
            row += 1
            v = int(next(data))
    if search(start, 0):
        for m in answer:
            print(m[0], m[1], m[2])
    else:
        print(-1)


main()
