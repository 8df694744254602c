/* Mayan puzzle (NOIP 2011 day 1 problem 3): the plainest accepted contest
 * style, in C (gcc -O2). Literal rules of RULES.md: exactly n moves; a swap of
 * two equal colours is a legal move (changes nothing, still counts); a board
 * emptied before the n-th move is not a solution. DFS in lexicographic move
 * order (x, then y, then g = 1 before -1); the first solution found is the
 * answer. One pruning only: a colour with 1 or 2 blocks left is dead. Unlike
 * backtrack.cpp it does NOT use the left/right equivalence: every left move is
 * tried, into a block or into an empty cell. No memo.
 *
 * It sets the bundled problem's difficulty: `problems/mayan` must accept it
 * with at least 2x margin on every test (0.8 s at most of the 3 s limit);
 * boards it needs longer for live in `problems/mayan-hard`. */
#include <stdio.h>
#include <string.h>
#include <stdbool.h>

static int n;
static int bd[32][5][7];         // bd[depth][x][y], 0 = empty (n <= 5 in the contest)
static int ans[32][3];

static void fall(int b[5][7]) {
    for (int x = 0; x < 5; x++) {
        int h = 0;
        for (int y = 0; y < 7; y++)
            if (b[x][y]) { int c = b[x][y]; b[x][y] = 0; b[x][h++] = c; }
    }
}

// mark every run of >= 3 (all at once), remove; return whether anything went
static bool clear_runs(int b[5][7]) {
    bool mk[5][7];
    memset(mk, 0, sizeof mk);
    bool any = false;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++) {
            int c = b[x][y];
            if (!c) continue;
            if (x <= 2 && b[x + 1][y] == c && b[x + 2][y] == c) {
                mk[x][y] = mk[x + 1][y] = mk[x + 2][y] = true; any = true;
            }
            if (y <= 4 && b[x][y + 1] == c && b[x][y + 2] == c) {
                mk[x][y] = mk[x][y + 1] = mk[x][y + 2] = true; any = true;
            }
        }
    if (!any) return false;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++)
            if (mk[x][y]) b[x][y] = 0;
    return true;
}

static void settle(int b[5][7]) {
    do { fall(b); } while (clear_runs(b));
}

static bool dead(int b[5][7]) {
    int cnt[11];
    memset(cnt, 0, sizeof cnt);
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7 && b[x][y]; y++) cnt[b[x][y]]++;
    for (int c = 1; c <= 10; c++)
        if (cnt[c] == 1 || cnt[c] == 2) return true;
    return false;
}

static bool empty(int b[5][7]) {
    for (int x = 0; x < 5; x++) if (b[x][0]) return false;
    return true;
}

static bool dfs(int d) {
    int (*b)[7] = bd[d];
    if (empty(b)) return d == n;     // empty before the n-th move: no legal move
    if (d == n) return false;
    if (dead(b)) return false;
    int (*nb)[7] = bd[d + 1];
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7 && b[x][y]; y++) {
            if (x < 4) {
                memcpy(nb, b, sizeof(int) * 35);
                int t = nb[x][y]; nb[x][y] = nb[x + 1][y]; nb[x + 1][y] = t;
                settle(nb);
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = 1;
                if (dfs(d + 1)) return true;
            }
            if (x > 0) {
                memcpy(nb, b, sizeof(int) * 35);
                int t = nb[x][y]; nb[x][y] = nb[x - 1][y]; nb[x - 1][y] = t;
                settle(nb);
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = -1;
                if (dfs(d + 1)) return true;
            }
        }
    return false;
}

int main() {
    if (scanf("%d", &n) != 1) return 0;
    if (n < 0 || n > 30) { printf("-1\n"); return 0; }   // outside any sane range
    for (int x = 0; x < 5; x++) {
        int y = 0, c;
        while (scanf("%d", &c) == 1 && c != 0) bd[0][x][y++] = c;
    }
    if (dfs(0)) {
        for (int i = 0; i < n; i++) printf("%d %d %d\n", ans[i][0], ans[i][1], ans[i][2]);
    } else {
        printf("-1\n");
    }
    return 0;
}
