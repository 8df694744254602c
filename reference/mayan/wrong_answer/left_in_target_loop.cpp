// WRONG ANSWER (Mayan, NOIP 2011): backtrack.cpp plus a dead-state memo (for speed), with one bug,
// a known contest mistake in the order of moves: a left move into an empty
// cell (x, y) is generated in the loop of the column it moves INTO (x), right
// after the right move (x, y, 1), instead of in the loop of its own column
// x + 1. So (x + 1, y, -1) is tried before (x + 1, y', 1) and (x + 1, y', -1)
// for every y' <= y, and when both start a solution the program prints one
// that is not the lexicographically smallest. Everything else is correct.
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
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++) {
            if (b[x][y] && x < 4) {
                memcpy(nb, b, sizeof(int) * 35);
                int t = nb[x][y]; nb[x][y] = nb[x + 1][y]; nb[x + 1][y] = t;
                settle(nb);
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = 1;
                if (dfs(d + 1)) return true;
            }
            // BUG: the block at (x + 1, y) moving left into the empty (x, y) is
            // tried here, in column x's loop, not in column x + 1's.
            if (!b[x][y] && x < 4 && b[x + 1][y]) {
                memcpy(nb, b, sizeof(int) * 35);
                nb[x][y] = nb[x + 1][y]; nb[x + 1][y] = 0;
                settle(nb);
                ans[d][0] = x + 1; ans[d][1] = y; ans[d][2] = -1;
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
