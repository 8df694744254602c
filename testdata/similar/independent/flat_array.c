/* Mayan puzzle in C: the board is one flat array of 35 cells, column-major. */
#include <stdio.h>
#include <string.h>

#define W 5
#define H 7
#define AT(b, x, y) ((b)[(x) * H + (y)])

static int limit;
static int stack_b[8][W * H];
static int mx[8], my[8], mg[8];

static void compact(int *b) {
    int x, y, top;
    for (x = 0; x < W; x++) {
        top = 0;
        for (y = 0; y < H; y++) {
            if (AT(b, x, y) != 0) {
                AT(b, x, top) = AT(b, x, y);
                if (top != y) AT(b, x, y) = 0;
                top++;
            }
        }
    }
}

static int sweep(int *b) {
    char kill[W * H];
    int x, y, hit = 0;
    memset(kill, 0, sizeof(kill));
    for (x = 0; x < W; x++) {
        for (y = 0; y < H; y++) {
            int v = AT(b, x, y);
            if (v == 0) continue;
            if (x + 2 < W && AT(b, x + 1, y) == v && AT(b, x + 2, y) == v) {
                kill[x * H + y] = kill[(x + 1) * H + y] = kill[(x + 2) * H + y] = 1;
                hit = 1;
            }
            if (y + 2 < H && AT(b, x, y + 1) == v && AT(b, x, y + 2) == v) {
                kill[x * H + y] = kill[x * H + y + 1] = kill[x * H + y + 2] = 1;
                hit = 1;
            }
        }
    }
    for (x = 0; x < W * H; x++)
        if (kill[x]) b[x] = 0;
    return hit;
}

static int is_empty(const int *b) {
    int x;
    for (x = 0; x < W; x++)
        if (AT(b, x, 0)) return 0;
    return 1;
}

static int doomed(const int *b) {
    int count[16] = {0}, i;
    for (i = 0; i < W * H; i++) count[b[i]]++;
    for (i = 1; i < 16; i++)
        if (count[i] == 1 || count[i] == 2) return 1;
    return 0;
}

static int go(int depth) {
    int *b = stack_b[depth], *nb = stack_b[depth + 1];
    int x, y, g;
    if (is_empty(b)) return depth == limit;
    if (depth == limit || doomed(b)) return 0;
    for (x = 0; x < W; x++)
        for (y = 0; y < H && AT(b, x, y); y++)
            for (g = 1; g >= -1; g -= 2) {
                int t = x + g;
                if (t < 0 || t >= W) continue;
                if (g < 0 && AT(b, t, y)) continue;
                memcpy(nb, b, sizeof(int) * W * H);
                AT(nb, x, y) = AT(b, t, y);
                AT(nb, t, y) = AT(b, x, y);
                do compact(nb); while (sweep(nb));
                mx[depth] = x; my[depth] = y; mg[depth] = g;
                if (go(depth + 1)) return 1;
            }
    return 0;
}

int main(void) {
    int x, v, y;
    scanf("%d", &limit);
    for (x = 0; x < W; x++) {
        y = 0;
        while (scanf("%d", &v) == 1 && v) AT(stack_b[0], x, y++) = v;
    }
    if (!go(0)) { puts("-1"); return 0; }
    for (x = 0; x < limit; x++) printf("%d %d %d\n", mx[x], my[x], mg[x]);
    return 0;
}
