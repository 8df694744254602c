// Mayan puzzle: depth-first search over moves, following the usual outline.
#include <iostream>
#include <cstring>
using namespace std;

int n;
int g[5][7];
int saved[6][5][7];
int ax[6], ay[6], ad[6];

void drop() {
    for (int x = 0; x < 5; ++x) {
        int h = 0;
        for (int y = 0; y < 7; ++y)
            if (g[x][y] != 0) {
                int c = g[x][y];
                g[x][y] = 0;
                g[x][h++] = c;
            }
    }
}

bool eliminate() {
    bool mark[5][7];
    memset(mark, 0, sizeof mark);
    bool any = false;
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7; ++y) {
            if (!g[x][y]) continue;
            if (x + 2 < 5 && g[x + 1][y] == g[x][y] && g[x + 2][y] == g[x][y]) {
                mark[x][y] = mark[x + 1][y] = mark[x + 2][y] = true;
                any = true;
            }
            if (y + 2 < 7 && g[x][y + 1] == g[x][y] && g[x][y + 2] == g[x][y]) {
                mark[x][y] = mark[x][y + 1] = mark[x][y + 2] = true;
                any = true;
            }
        }
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7; ++y)
            if (mark[x][y]) g[x][y] = 0;
    return any;
}

void settle() {
    drop();
    while (eliminate()) drop();
}

bool empty() {
    for (int x = 0; x < 5; ++x)
        if (g[x][0]) return false;
    return true;
}

bool hopeless() {
    int cnt[11] = {0};
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7; ++y) cnt[g[x][y]]++;
    for (int c = 1; c <= 10; ++c)
        if (cnt[c] == 1 || cnt[c] == 2) return true;
    return false;
}

bool dfs(int step) {
    if (step == n) return empty();
    if (hopeless()) return false;
    memcpy(saved[step], g, sizeof g);
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 7 && g[x][y]; ++y) {
            if (x < 4 && g[x + 1][y] != g[x][y]) {
                swap(g[x][y], g[x + 1][y]);
                settle();
                ax[step] = x; ay[step] = y; ad[step] = 1;
                if (dfs(step + 1)) return true;
                memcpy(g, saved[step], sizeof g);
            }
            if (x > 0 && g[x - 1][y] == 0) {
                swap(g[x][y], g[x - 1][y]);
                settle();
                ax[step] = x; ay[step] = y; ad[step] = -1;
                if (dfs(step + 1)) return true;
                memcpy(g, saved[step], sizeof g);
            }
        }
    return false;
}

int main() {
    cin >> n;
    for (int x = 0; x < 5; ++x) {
        int y = 0, c;
        while (cin >> c && c != 0) g[x][y++] = c;
    }
    if (dfs(0)) {
        for (int i = 0; i < n; ++i) cout << ax[i] << ' ' << ay[i] << ' ' << ad[i] << '\n';
    } else {
        cout << -1 << '\n';
    }
    return 0;
}
