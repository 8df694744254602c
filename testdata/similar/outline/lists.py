# Mayan puzzle, following the usual outline: drop, eliminate, prune, search.
import sys


def drop(board):
    for col in board:
        stones = [c for c in col if c]
        col[:] = stones + [0] * (7 - len(stones))


def eliminate(board):
    marked = set()
    for x in range(5):
        for y in range(7):
            c = board[x][y]
            if c == 0:
                continue
            if x + 2 < 5 and board[x + 1][y] == c and board[x + 2][y] == c:
                marked.update([(x, y), (x + 1, y), (x + 2, y)])
            if y + 2 < 7 and board[x][y + 1] == c and board[x][y + 2] == c:
                marked.update([(x, y), (x, y + 1), (x, y + 2)])
    for x, y in marked:
        board[x][y] = 0
    return bool(marked)


def settle(board):
    drop(board)
    while eliminate(board):
        drop(board)


def hopeless(board):
    count = [0] * 11
    for col in board:
        for c in col:
            count[c] += 1
    return any(count[c] in (1, 2) for c in range(1, 11))


def search(board, step, n, moves):
    if step == n:
        return all(col[0] == 0 for col in board)
    if hopeless(board):
        return False
    for x in range(5):
        for y in range(7):
            if board[x][y] == 0:
                break
            if x < 4 and board[x + 1][y] != board[x][y]:
                nxt = [col[:] for col in board]
                nxt[x][y], nxt[x + 1][y] = nxt[x + 1][y], nxt[x][y]
                settle(nxt)
                moves.append((x, y, 1))
                if search(nxt, step + 1, n, moves):
                    return True
                moves.pop()
            if x > 0 and board[x - 1][y] == 0:
                nxt = [col[:] for col in board]
                nxt[x][y], nxt[x - 1][y] = nxt[x - 1][y], nxt[x][y]
                settle(nxt)
                moves.append((x, y, -1))
                if search(nxt, step + 1, n, moves):
                    return True
                moves.pop()
    return False


def main():
    n = int(input())
    board = []
    for _ in range(5):
        nums = list(map(int, input().split()))
        nums = nums[:nums.index(0)]
        board.append(nums + [0] * (7 - len(nums)))
    moves = []
    if search(board, 0, n, moves):
        for x, y, d in moves:
            print(x, y, d)
    else:
        print(-1)


main()
