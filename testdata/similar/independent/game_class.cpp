// Mayan puzzle solved by a Game object that keeps a stack of boards.
#include <cstdio>
#include <cstring>

class Game {
public:
    int limit;
    int board[8][5][7];
    int moves[8][3];

    explicit Game(int n) : limit(n) { std::memset(board, 0, sizeof board); }

    bool run() { return step(0); }

private:
    void fall(int (*b)[7]) {
        for (int x = 0; x < 5; ++x) {
            int w = 0;
            for (int y = 0; y < 7; ++y) {
                if (b[x][y]) {
                    int c = b[x][y];
                    b[x][y] = 0;
                    b[x][w] = c;
                    ++w;
                }
            }
        }
    }

    bool vanish(int (*b)[7]) {
        bool mark[5][7] = {};
        bool found = false;
        for (int x = 0; x < 5; ++x) {
            for (int y = 0; y < 7; ++y) {
                int c = b[x][y];
                if (c == 0) continue;
                if (x + 2 < 5 && b[x + 1][y] == c && b[x + 2][y] == c) {
                    mark[x][y] = mark[x + 1][y] = mark[x + 2][y] = true;
                    found = true;
                }
                if (y + 2 < 7 && b[x][y + 1] == c && b[x][y + 2] == c) {
                    mark[x][y] = mark[x][y + 1] = mark[x][y + 2] = true;
                    found = true;
                }
            }
        }
        for (int x = 0; x < 5; ++x)
            for (int y = 0; y < 7; ++y)
                if (mark[x][y]) b[x][y] = 0;
        return found;
    }

    bool cleared(int (*b)[7]) {
        for (int x = 0; x < 5; ++x)
            if (b[x][0] != 0) return false;
        return true;
    }

    bool doomed(int (*b)[7]) {
        int count[11] = {};
        for (int x = 0; x < 5; ++x)
            for (int y = 0; y < 7; ++y) count[b[x][y]]++;
        for (int c = 1; c <= 10; ++c)
            if (count[c] == 1 || count[c] == 2) return true;
        return false;
    }

    bool step(int d) {
        int (*cur)[7] = board[d];
        if (cleared(cur)) return d == limit;
        if (d == limit || doomed(cur)) return false;
        int (*nxt)[7] = board[d + 1];
        for (int x = 0; x < 5; ++x) {
            for (int y = 0; y < 7; ++y) {
                if (cur[x][y] == 0) break;
                for (int g = 1; g >= -1; g -= 2) {
                    if (x + g < 0 || x + g > 4) continue;
                    if (g < 0 && cur[x + g][y] != 0) continue;
                    std::memcpy(nxt, cur, sizeof board[0]);
                    int t = nxt[x][y];
                    nxt[x][y] = nxt[x + g][y];
                    nxt[x + g][y] = t;
                    do { fall(nxt); } while (vanish(nxt));
                    moves[d][0] = x;
                    moves[d][1] = y;
                    moves[d][2] = g;
                    if (step(d + 1)) return true;
                }
            }
        }
        return false;
    }
};

int main() {
    int n;
    if (std::scanf("%d", &n) != 1) return 0;
    Game game(n);
    for (int x = 0; x < 5; ++x) {
        int y = 0, c;
        while (std::scanf("%d", &c) == 1 && c) game.board[0][x][y++] = c;
    }
    if (!game.run()) {
        std::puts("-1");
        return 0;
    }
    for (int i = 0; i < n; ++i) std::printf("%d %d %d\n", game.moves[i][0], game.moves[i][1], game.moves[i][2]);
    return 0;
}
