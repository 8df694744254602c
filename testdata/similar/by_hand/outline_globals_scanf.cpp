#include <cstdio>
#include <cstring>
#include <algorithm>
using namespace std;
typedef long long ll;
#define rep(i, n) for (int i = 0; i < (n); i++)

ll steps, a[5][7], bak[6][5][7];
ll rx[6], ry[6], rd[6];

bool hopeless() {
    ll c[11] = {0};
    rep(x, 5) rep(y, 7) c[a[x][y]]++;
    for (int k = 1; k <= 10; ++k)
        if (c[k] == 1 || c[k] == 2) return true;
    return false;
}

bool clearAll() {
    for (int x = 0; x < 5; ++x)
        if (a[x][0]) return false;
    return true;
}

// one full update after a move: fall, then clear while something clears
void update() {
    for (;;) {
        rep(x, 5) {
            ll h = 0;
            rep(y, 7) if (a[x][y] != 0) {
                ll v = a[x][y];
                a[x][y] = 0;
                a[x][h++] = v;
            }
        }
        bool del[5][7];
        memset(del, 0, sizeof del);
        bool hit = false;
        rep(x, 5) rep(y, 7) {
            ll v = a[x][y];
            if (!v) continue;
            bool row = x + 2 < 5 && a[x + 1][y] == v && a[x + 2][y] == v;
            if (row) {
                del[x][y] = del[x + 1][y] = del[x + 2][y] = true;
                hit = true;
            }
            bool col = y + 2 < 7 && a[x][y + 1] == v && a[x][y + 2] == v;
            if (col) {
                del[x][y] = del[x][y + 1] = del[x][y + 2] = true;
                hit = true;
            }
        }
        if (!hit) break;
        rep(x, 5) rep(y, 7) if (del[x][y]) a[x][y] = 0;
    }
}

void record(int k, int x, int y, int d) { rx[k] = x; ry[k] = y; rd[k] = d; }

bool dfs(int k) {
    if (k == steps) return clearAll();
    if (hopeless()) return false;
    memcpy(bak[k], a, sizeof a);
    rep(x, 5) for (int y = 0; y < 7 && a[x][y]; ++y) {
        bool canRight = x < 4 && a[x + 1][y] != a[x][y];
        if (canRight) {
            swap(a[x][y], a[x + 1][y]);
            update();
            record(k, x, y, 1);
            if (dfs(k + 1)) return true;
            memcpy(a, bak[k], sizeof a);
        }
        if (x > 0 && !a[x - 1][y]) {
            swap(a[x][y], a[x - 1][y]);
            update();
            record(k, x, y, -1);
            if (dfs(k + 1)) return true;
            memcpy(a, bak[k], sizeof a);
        }
    }
    return false;
}

int main() {
    scanf("%lld", &steps);
    rep(x, 5) {
        ll c;
        int y = 0;
        while (scanf("%lld", &c) == 1 && c != 0) a[x][y++] = c;
    }
    bool ok = dfs(0);
    if (!ok) { puts("-1"); return 0; }
    rep(i, steps) printf("%lld %lld %lld\n", rx[i], ry[i], rd[i]);
    return 0;
}
