// Mayan puzzle (NOIP 2011 day 1 problem 3): the memoised baseline of
// `mayan-judge bench`. A plain exhaustive search, as a strong contestant would
// write it: backtrack.cpp (DFS in answer order, colour-count pruning, a left
// move only into an empty cell) plus a memo of dead states, an
// std::unordered_set of the board as a string with the moves left. Literal
// rules of RULES.md; the first solution found is the smallest. n up to 30.
#include <cstdio>
#include <cstring>
#include <string>
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

// Dead states: the board (35 cells, column by column) and the moves left.
static std::unordered_set<std::string> dead_states;

static std::string state_key(int b[5][7], int d) {
    std::string s(36, '\0');
    for (int x = 0; x < 5; x++)
        for (int y = 0; y < 7; y++) s[x * 7 + y] = (char)b[x][y];
    s[35] = (char)(n - d);
    return s;
}

static bool dfs(int d) {
    int (*b)[7] = bd[d];
    if (empty(b)) return d == n;     // empty before the n-th move: no legal move
    if (d == n) return false;
    if (dead(b)) return false;
    std::string key = state_key(b, d);
    if (dead_states.count(key)) return false;
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
            if (x > 0 && b[x - 1][y] == 0) {
                memcpy(nb, b, sizeof(int) * 35);
                nb[x - 1][y] = nb[x][y]; nb[x][y] = 0;
                settle(nb);
                ans[d][0] = x; ans[d][1] = y; ans[d][2] = -1;
                if (dfs(d + 1)) return true;
            }
        }
    dead_states.insert(key);
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
