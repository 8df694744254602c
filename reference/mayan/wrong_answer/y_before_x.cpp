// WRONG ANSWER (Mayan, NOIP 2011): backtrack.cpp plus a dead-state memo (for speed), with one bug: moves are
// enumerated with y in the outer loop and x in the inner loop, so among several
// solutions it finds the smallest by (y, x, g) instead of (x, y, g). Same set of
// solutions, so "-1" boards are still right. Exposed by any board with two
// solutions whose first differing moves are e.g. (0, 2, g) and (1, 0, g).
// Example: "2 / 4 4 0 / 4 0 / 0 / 0 / 0" -> expected 0 1 1 | 1 0 1, this
// program prints 1 0 1 | 0 0 1. Fails official cases 7, 8 and 10.
#include <cstdio>
#include <cstring>
#include <unordered_set>

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

// Memo of dead states (a hash of the board and the moves left), so that this
// program is fast on every test: it must fail by its bug, never by time, or
// its verdict would depend on the machine's load.
static std::unordered_set<unsigned long long> seen_dead;

static unsigned long long state_key(int b[5][7], int d) {
    unsigned long long h = (1469598103934665603ULL ^ (unsigned long long)(n - d)) * 1099511628211ULL;
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++) h = (h ^ (unsigned long long)b[x][y]) * 1099511628211ULL;
    return h;
}

static bool dfs(int d) {
    int (*b)[7] = bd[d];
    if (empty(b)) return d == n;     // empty before the n-th move: no legal move
    if (d == n) return false;
    if (dead(b)) return false;
    unsigned long long key = state_key(b, d);
    if (seen_dead.count(key)) return false;
    int (*nb)[7] = bd[d + 1];
    // BUG: rows outside, columns inside: moves are tried ordered by y, then x
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 5; x++) {
            if (!b[x][y]) continue;
            if (x < 4) {
                memcpy(nb, b, sizeof(int) * 35);
                int t = nb[x][y]; nb[x][y] = nb[x + 1][y]; nb[x + 1][y] = t;
                settle(nb);
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = 1;
                if (dfs(d + 1)) return true;
            }
            if (x > 0 && b[x - 1][y] == 0) {
                memcpy(nb, b, sizeof(int) * 35);
                nb[x - 1][y] = nb[x][y]; nb[x][y] = 0;
                settle(nb);
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = -1;
                if (dfs(d + 1)) return true;
            }
        }
    seen_dead.insert(key);
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
