/* Mayan puzzle: a struct state passed by pointer; runs measured by length. */
#include <stdio.h>
#include <stdbool.h>

typedef struct { signed char cell[5][7]; } state_t;
typedef struct { int col, row, dir; } step_t;

static step_t answer[16];
static int wanted;

static int run_len(const state_t *s, int x, int y, int dx, int dy) {
    int len = 0, c = s->cell[x][y];
    while (x < 5 && y < 7 && s->cell[x][y] == c) { len++; x += dx; y += dy; }
    return len;
}

static bool remove_groups(state_t *s) {
    state_t mask = {{{0}}};
    bool removed = false;
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7; ++y) {
            if (!s->cell[x][y]) continue;
            int h = run_len(s, x, y, 1, 0), v = run_len(s, x, y, 0, 1);
            for (int k = 0; h >= 3 && k < h; ++k) mask.cell[x + k][y] = 1;
            for (int k = 0; v >= 3 && k < v; ++k) mask.cell[x][y + k] = 1;
            if (h >= 3 || v >= 3) removed = true;
        }
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7; ++y)
            if (mask.cell[x][y]) s->cell[x][y] = 0;
    return removed;
}

static void let_fall(state_t *s) {
    for (int x = 0; x < 5; ++x) {
        int free_row = -1;
        for (int y = 0; y < 7; ++y) {
            if (!s->cell[x][y]) { if (free_row < 0) free_row = y; }
            else if (free_row >= 0) { s->cell[x][free_row++] = s->cell[x][y]; s->cell[x][y] = 0; }
        }
    }
}

static bool nothing_left(const state_t *s) {
    for (int x = 0; x < 5; ++x) if (s->cell[x][0]) return false;
    return true;
}

static bool has_orphan(const state_t *s) {
    int tally[11] = {0};
    for (int x = 0; x < 5; ++x) for (int y = 0; y < 7; ++y) tally[(int)s->cell[x][y]]++;
    for (int c = 1; c <= 10; ++c) if (tally[c] && tally[c] < 3) return true;
    return false;
}

static bool attempt(const state_t *s, int used) {
    if (nothing_left(s)) return used == wanted;
    if (used == wanted || has_orphan(s)) return false;
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7 && s->cell[x][y]; ++y)
            for (int d = 1; d >= -1; d -= 2) {
                int to = x + d;
                if (to < 0 || to > 4 || (d < 0 && s->cell[to][y])) continue;
                state_t t = *s;
                signed char keep = t.cell[to][y];
                t.cell[to][y] = t.cell[x][y];
                t.cell[x][y] = keep;
                do let_fall(&t); while (remove_groups(&t));
                answer[used] = (step_t){x, y, d};
                if (attempt(&t, used + 1)) return true;
            }
    return false;
}

int main(void) {
    state_t s = {{{0}}};
    if (scanf("%d", &wanted) != 1) return 1;
    for (int x = 0; x < 5; ++x)
        for (int y = 0, v; scanf("%d", &v) == 1 && v; ++y) s.cell[x][y] = (signed char)v;
    if (!attempt(&s, 0)) { printf("-1\n"); return 0; }
    for (int i = 0; i < wanted; ++i) printf("%d %d %d\n", answer[i].col, answer[i].row, answer[i].dir);
    return 0;
}
