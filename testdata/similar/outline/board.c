/* Mayan puzzle: the outline everyone reads: fall, clear, prune, search. */
#include <stdio.h>
#include <string.h>

typedef struct { int c[5][7]; } Board;

static int steps;
static int mx[8], my[8], md[8];

static void fall(Board *b) {
    int i, j, k;
    for (i = 0; i < 5; i++) {
        k = 0;
        for (j = 0; j < 7; j++)
            if (b->c[i][j]) b->c[i][k++] = b->c[i][j];
        while (k < 7) b->c[i][k++] = 0;
    }
}

static int clear(Board *b) {
    int del[5][7], i, j, found = 0;
    memset(del, 0, sizeof(del));
    for (i = 0; i < 5; i++)
        for (j = 0; j < 7; j++) {
            int v = b->c[i][j];
            if (!v) continue;
            if (i <= 2 && b->c[i + 1][j] == v && b->c[i + 2][j] == v)
                del[i][j] = del[i + 1][j] = del[i + 2][j] = found = 1;
            if (j <= 4 && b->c[i][j + 1] == v && b->c[i][j + 2] == v)
                del[i][j] = del[i][j + 1] = del[i][j + 2] = found = 1;
        }
    for (i = 0; i < 5; i++)
        for (j = 0; j < 7; j++)
            if (del[i][j]) b->c[i][j] = 0;
    return found;
}

static void apply(Board *b, int x, int y, int d) {
    int t = b->c[x][y];
    b->c[x][y] = b->c[x + d][y];
    b->c[x + d][y] = t;
    fall(b);
    while (clear(b)) fall(b);
}

static int cut(const Board *b) {
    int cnt[11], i, j;
    memset(cnt, 0, sizeof(cnt));
    for (i = 0; i < 5; i++)
        for (j = 0; j < 7; j++) cnt[b->c[i][j]]++;
    for (i = 1; i <= 10; i++)
        if (cnt[i] == 1 || cnt[i] == 2) return 1;
    return 0;
}

static int solve(const Board *b, int k) {
    int x, y;
    if (k == steps) {
        for (x = 0; x < 5; x++)
            if (b->c[x][0]) return 0;
        return 1;
    }
    if (cut(b)) return 0;
    for (x = 0; x < 5; x++)
        for (y = 0; y < 7 && b->c[x][y]; y++) {
            if (x < 4 && b->c[x + 1][y] != b->c[x][y]) {
                Board next = *b;
                apply(&next, x, y, 1);
                mx[k] = x, my[k] = y, md[k] = 1;
                if (solve(&next, k + 1)) return 1;
            }
            if (x > 0 && b->c[x - 1][y] == 0) {
                Board next = *b;
                apply(&next, x, y, -1);
                mx[k] = x, my[k] = y, md[k] = -1;
                if (solve(&next, k + 1)) return 1;
            }
        }
    return 0;
}

int main(void) {
    Board b;
    int i, v, j;
    memset(&b, 0, sizeof(b));
    if (scanf("%d", &steps) != 1) return 0;
    for (i = 0; i < 5; i++) {
        j = 0;
        while (scanf("%d", &v) == 1 && v) b.c[i][j++] = v;
    }
    if (!solve(&b, 0)) {
        printf("-1\n");
        return 0;
    }
    for (i = 0; i < steps; i++) printf("%d %d %d\n", mx[i], my[i], md[i]);
    return 0;
}
