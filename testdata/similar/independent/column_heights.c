// Mayan puzzle. Each column keeps its height; a move works on a copy of the board
// passed down the recursion (no undo).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 5
#define H 7

typedef struct {
    char c[W][H];
    char h[W];
} Board;

static int steps;
static int path[6][3];

static void compact(Board *b) {
    for (int x = 0; x < W; x++) {
        int top = 0;
        for (int y = 0; y < H; y++) {
            if (b->c[x][y] != 0) {
                b->c[x][top++] = b->c[x][y];
            }
        }
        b->h[x] = (char)top;
        while (top < H) b->c[x][top++] = 0;
    }
}

static int crush(Board *b) {
    char hit[W][H] = {{0}};
    int any = 0;
    for (int x = 0; x < W; x++) {
        for (int y = 0; y < b->h[x]; y++) {
            char v = b->c[x][y];
            if (y + 2 < H && b->c[x][y + 1] == v && b->c[x][y + 2] == v) {
                hit[x][y] = hit[x][y + 1] = hit[x][y + 2] = 1;
                any = 1;
            }
            if (x + 2 < W && b->c[x + 1][y] == v && b->c[x + 2][y] == v) {
                hit[x][y] = hit[x + 1][y] = hit[x + 2][y] = 1;
                any = 1;
            }
        }
    }
    for (int x = 0; x < W; x++)
        for (int y = 0; y < H; y++)
            if (hit[x][y]) b->c[x][y] = 0;
    return any;
}

static void settle(Board *b) {
    compact(b);
    while (crush(b)) compact(b);
}

static int impossible(const Board *b) {
    int cnt[16] = {0};
    for (int x = 0; x < W; x++)
        for (int y = 0; y < b->h[x]; y++) cnt[(int)b->c[x][y]]++;
    for (int k = 1; k < 16; k++)
        if (cnt[k] > 0 && cnt[k] < 3) return 1;
    return 0;
}

static int solve(Board b, int depth) {
    int blocks = 0;
    for (int x = 0; x < W; x++) blocks += b.h[x];
    if (blocks == 0) return depth == steps;
    if (depth == steps || impossible(&b)) return 0;
    for (int x = 0; x < W; x++) {
        for (int y = 0; y < b.h[x]; y++) {
            for (int d = 1; d >= -1; d -= 2) {
                int nx = x + d;
                if (nx < 0 || nx >= W) continue;
                if (d == -1 && b.c[nx][y] != 0) continue;
                Board next = b;
                char t = next.c[x][y];
                next.c[x][y] = next.c[nx][y];
                next.c[nx][y] = t;
                settle(&next);
                path[depth][0] = x;
                path[depth][1] = y;
                path[depth][2] = d;
                if (solve(next, depth + 1)) return 1;
            }
        }
    }
    return 0;
}

int main(void) {
    Board b;
    memset(&b, 0, sizeof b);
    if (scanf("%d", &steps) != 1) return 0;
    for (int x = 0; x < W; x++) {
        int v, y = 0;
        while (scanf("%d", &v) == 1 && v != 0) b.c[x][y++] = (char)v;
        b.h[x] = (char)y;
    }
    if (!solve(b, 0)) {
        puts("-1");
        return 0;
    }
    for (int i = 0; i < steps; i++) printf("%d %d %d\n", path[i][0], path[i][1], path[i][2]);
    return 0;
}
