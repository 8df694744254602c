// Mayan puzzle, written from the lesson's handout: read_board, fall,
// clear_runs, settle, is_empty, dfs, in that order.
#include <cstdio>
#include <cstring>

int n;
int board[5][7];
int saved[6][5][7];
int ans[6][3];

void read_board() {
    scanf("%d", &n);
    for (int x = 0; x < 5; x++) {
        int y = 0, c;
        while (scanf("%d", &c) == 1 && c != 0) board[x][y++] = c;
    }
}

void fall() {
    for (int x = 0; x < 5; x++) {
        int top = 0;
        for (int y = 0; y < 7; y++)
            if (board[x][y]) {
                int c = board[x][y];
                board[x][y] = 0;
                board[x][top++] = c;
            }
    }
}

bool clear_runs() {
    bool mark[5][7];
    memset(mark, 0, sizeof mark);
    bool any = false;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++) {
            int c = board[x][y];
            if (!c) continue;
            if (x + 2 < 5 && board[x + 1][y] == c && board[x + 2][y] == c) {
                mark[x][y] = mark[x + 1][y] = mark[x + 2][y] = true;
                any = true;
            }
            if (y + 2 < 7 && board[x][y + 1] == c && board[x][y + 2] == c) {
                mark[x][y] = mark[x][y + 1] = mark[x][y + 2] = true;
                any = true;
            }
        }
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++)
            if (mark[x][y]) board[x][y] = 0;
    return any;
}

void settle() {
    do {
        fall();
    } while (clear_runs());
}

bool is_empty() {
    for (int x = 0; x < 5; x++)
        if (board[x][0]) return false;
    return true;
}

bool dfs(int step) {
    if (step == n) return is_empty();
    memcpy(saved[step], board, sizeof board);
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7 && board[x][y]; y++)
            for (int g = 1; g >= -1; g -= 2) {
                int nx = x + g;
                if (nx < 0 || nx > 4) continue;
                int t = board[x][y];
                board[x][y] = board[nx][y];
                board[nx][y] = t;
                settle();
                ans[step][0] = x;
                ans[step][1] = y;
                ans[step][2] = g;
                if (dfs(step + 1)) return true;
                memcpy(board, saved[step], sizeof board);
            }
    return false;
}

int main() {
    read_board();
    if (dfs(0)) {
        for (int i = 0; i < n; i++) printf("%d %d %d\n", ans[i][0], ans[i][1], ans[i][2]);
    } else {
        printf("-1\n");
    }
    return 0;
}
