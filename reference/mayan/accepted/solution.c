/* Mayan puzzle (NOIP 2011 day 1 problem 3): accepted C reference
 * (gcc -O2 -std=c11 -lm). Literal rules of RULES.md: exactly n moves; a swap of
 * two equal colours is a legal move (changes nothing, still counts); a board
 * emptied before the n-th move is not a solution. DFS in lexicographic move
 * order (x, then y, then g = 1 before -1); the first solution is the answer.
 * Board kept as 5 stacks with heights. Pruning: a colour with 1 or 2 blocks is
 * dead; a left move only into an empty cell (a left swap with a block equals
 * the earlier right swap of the neighbour). */
#include <stdio.h>
#include <string.h>

typedef struct {
    unsigned char c[5][8]; /* c[x][y], y < h[x]; c[x][h[x]..] = 0 */
    int h[5];
} Board;

static int n;
static int sol[32][3];

/* remove every run of >= 3 at once (maximal runs), then drop; repeat */
static void settle(Board *b) {
    for (;;) {
        unsigned char mk[5][8];
        int any = 0;
        memset(mk, 0, sizeof mk);
        for (int x = 0; x < 5; x++) {
            int y = 0;
            while (y < b->h[x]) {
                int e = y + 1;
                while (e < b->h[x] && b->c[x][e] == b->c[x][y]) e++;
                if (e - y >= 3) { for (int t = y; t < e; t++) mk[x][t] = 1; any = 1; }
                y = e;
            }
        }
        for (int y = 0; y < 7; y++) {
            int x = 0;
            while (x < 5) {
                if (y >= b->h[x]) { x++; continue; }
                int e = x + 1;
                while (e < 5 && y < b->h[e] && b->c[e][y] == b->c[x][y]) e++;
                if (e - x >= 3) { for (int t = x; t < e; t++) mk[t][y] = 1; any = 1; }
                x = e;
            }
        }
        if (!any) return;
        for (int x = 0; x < 5; x++) {
            int k = 0;
            for (int y = 0; y < b->h[x]; y++)
                if (!mk[x][y]) b->c[x][k++] = b->c[x][y];
            for (int y = k; y < 8; y++) b->c[x][y] = 0;
            b->h[x] = k;
        }
    }
}

/* block (x, y) goes into the empty cell of column tx and falls; column x drops */
static void move_to_empty(Board *b, int x, int y, int tx) {
    unsigned char v = b->c[x][y];
    for (int t = y; t < b->h[x] - 1; t++) b->c[x][t] = b->c[x][t + 1];
    b->h[x]--;
    b->c[x][b->h[x]] = 0;
    b->c[tx][b->h[tx]++] = v;
}

static int hopeless(const Board *b) {
    int cnt[11] = {0};
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < b->h[x]; y++) cnt[b->c[x][y]]++;
    for (int c = 1; c <= 10; c++)
        if (cnt[c] == 1 || cnt[c] == 2) return 1;
    return 0;
}

static int dfs(const Board *b, int d) {
    int total = b->h[0] + b->h[1] + b->h[2] + b->h[3] + b->h[4];
    if (total == 0) return d == n;   /* an empty board has no legal move */
    if (d == n || hopeless(b)) return 0;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < b->h[x]; y++) {
            if (x < 4) {
                Board nb = *b;
                if (y < nb.h[x + 1]) {
                    unsigned char t = nb.c[x][y];
                    nb.c[x][y] = nb.c[x + 1][y];
                    nb.c[x + 1][y] = t;
                } else {
                    move_to_empty(&nb, x, y, x + 1);
                }
                settle(&nb);
                sol[d][0] = x; sol[d][1] = y; sol[d][2] = 1;
                if (dfs(&nb, d + 1)) return 1;
            }
            if (x > 0 && y >= b->h[x - 1]) {
                Board nb = *b;
                move_to_empty(&nb, x, y, x - 1);
                settle(&nb);
                sol[d][0] = x; sol[d][1] = y; sol[d][2] = -1;
                if (dfs(&nb, d + 1)) return 1;
            }
        }
    return 0;
}

int main(void) {
    Board b;
    memset(&b, 0, sizeof b);
    if (scanf("%d", &n) != 1) return 0;
    if (n < 0 || n > 30) { printf("-1\n"); return 0; }   /* outside any sane range */
    for (int x = 0; x < 5; x++) {
        int v;
        while (scanf("%d", &v) == 1 && v != 0) b.c[x][b.h[x]++] = (unsigned char)v;
    }
    if (dfs(&b, 0)) {
        for (int i = 0; i < n; i++) printf("%d %d %d\n", sol[i][0], sol[i][1], sol[i][2]);
    } else {
        printf("-1\n");
    }
    return 0;
}
