#include <bits/stdc++.h>
using namespace std;
#define rep(i, a, b) for (int i = (a); i < (b); ++i)
#define per(i, a, b) for (int i = (b) - 1; i >= (a); --i)
typedef long long ll;

int n, mp[10][5][7];
struct Step { int x, y, g; } st[10];

void down(int a[5][7]) {
    rep(i, 0, 5) {
        int p = 0;
        rep(j, 0, 7) if (a[i][j]) a[i][p++] = a[i][j];
        rep(j, p, 7) a[i][j] = 0;
    }
}

bool clr(int a[5][7]) {
    static bool f[5][7];
    memset(f, 0, sizeof f);
    bool flag = false;
    rep(i, 0, 5) rep(j, 0, 7) {
        if (!a[i][j]) continue;
        if (i < 3 && a[i + 1][j] == a[i][j] && a[i + 2][j] == a[i][j]) f[i][j] = f[i + 1][j] = f[i + 2][j] = flag = true;
        if (j < 5 && a[i][j + 1] == a[i][j] && a[i][j + 2] == a[i][j]) f[i][j] = f[i][j + 1] = f[i][j + 2] = flag = true;
    }
    rep(i, 0, 5) rep(j, 0, 7) if (f[i][j]) a[i][j] = 0;
    return flag;
}

bool ok(int a[5][7]) {
    rep(i, 0, 5) if (a[i][0]) return false;
    return true;
}

bool cut(int a[5][7]) {
    int c[11] = {0};
    rep(i, 0, 5) rep(j, 0, 7) c[a[i][j]]++;
    rep(k, 1, 11) if (c[k] == 1 || c[k] == 2) return true;
    return false;
}

bool dfs(int d) {
    if (ok(mp[d])) return d == n;
    if (d >= n || cut(mp[d])) return false;
    rep(i, 0, 5) rep(j, 0, 7) {
        if (!mp[d][i][j]) break;
        if (i + 1 < 5) {
            memcpy(mp[d + 1], mp[d], sizeof mp[d]);
            swap(mp[d + 1][i][j], mp[d + 1][i + 1][j]);
            do down(mp[d + 1]); while (clr(mp[d + 1]));
            st[d] = {i, j, 1};
            if (dfs(d + 1)) return true;
        }
        if (i > 0 && !mp[d][i - 1][j]) {
            memcpy(mp[d + 1], mp[d], sizeof mp[d]);
            swap(mp[d + 1][i][j], mp[d + 1][i - 1][j]);
            do down(mp[d + 1]); while (clr(mp[d + 1]));
            st[d] = {i, j, -1};
            if (dfs(d + 1)) return true;
        }
    }
    return false;
}

int main() {
    ios::sync_with_stdio(false);
    cin >> n;
    rep(i, 0, 5) {
        int x, j = 0;
        while (cin >> x && x) mp[0][i][j++] = x;
    }
    if (!dfs(0)) { cout << -1 << endl; return 0; }
    rep(i, 0, n) cout << st[i].x << ' ' << st[i].y << ' ' << st[i].g << '\n';
    return 0;
}
