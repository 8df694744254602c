# Mayan puzzle solved by a Game object that keeps a stack of boards.
import sys


class Game:
    def __init__(self, n):
        self.limit = n
        self.board = [[[0] * 7 for _ in range(5)] for _ in range(8)]
        self.moves = [[0, 0, 0] for _ in range(8)]

    def run(self):
        return self.step(0)

    def fall(self, b):
        for x in range(0, 5):
            w = 0
            for y in range(0, 7):
                if b[x][y]:
                    c = b[x][y]
                    b[x][y] = 0
                    b[x][w] = c
                    w += 1

    def vanish(self, b):
        mark = [[False] * 7 for _ in range(5)]
        found = False
        for x in range(0, 5):
            for y in range(0, 7):
                c = b[x][y]
                if c == 0:
                    continue
                if x + 2 < 5 and b[x + 1][y] == c and b[x + 2][y] == c:
                    mark[x][y] = mark[x + 1][y] = mark[x + 2][y] = True
                    found = True
                if y + 2 < 7 and b[x][y + 1] == c and b[x][y + 2] == c:
                    mark[x][y] = mark[x][y + 1] = mark[x][y + 2] = True
                    found = True
        for x in range(0, 5):
            for y in range(0, 7):
                if mark[x][y]:
                    b[x][y] = 0
        return found

    def cleared(self, b):
        for x in range(0, 5):
            if b[x][0] != 0:
                return False
        return True

    def doomed(self, b):
        count = [0] * 11
        for x in range(0, 5):
            for y in range(0, 7):
                count[b[x][y]] += 1
        for c in range(1, 11):
            if count[c] == 1 or count[c] == 2:
                return True
        return False

    def step(self, d):
        cur = self.board[d]
        if self.cleared(cur):
            return d == self.limit
        if d == self.limit or self.doomed(cur):
            return False
        for x in range(0, 5):
            for y in range(0, 7):
                if cur[x][y] == 0:
                    break
                for g in (1, -1):
                    if x + g < 0 or x + g > 4:
                        continue
                    if g < 0 and cur[x + g][y] != 0:
                        continue
                    nxt = [col[:] for col in cur]
                    self.board[d + 1] = nxt
                    t = nxt[x][y]
                    nxt[x][y] = nxt[x + g][y]
                    nxt[x + g][y] = t
                    self.fall(nxt)
                    while self.vanish(nxt):
                        self.fall(nxt)
                    self.moves[d][0] = x
                    self.moves[d][1] = y
                    self.moves[d][2] = g
                    if self.step(d + 1):
                        return True
        return False


def main():
    data = iter(sys.stdin.read().split())
    n = int(next(data))
    game = Game(n)
    for x in range(0, 5):
        y = 0
        c = int(next(data))
        while c:
            game.board[0][x][y] = c
            y += 1
            c = int(next(data))
    if not game.run():
        print(-1)
        return
    for i in range(0, n):
        print(game.moves[i][0], game.moves[i][1], game.moves[i][2])


main()
