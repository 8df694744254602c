#include <cstdio>
#include <cstring>
#include <algorithm>
using namespace std;

int n, a[5][7], last[6][5][7], res[6][3];

void fall() {
    for (int i = 0; i < 5; i++) {
        int cnt = 0;
        for (int j = 0; j < 7; j++) {
            if (a[i][j]) a[i][cnt++] = a[i][j];
        }
        for (int j = cnt; j < 7; j++) a[i][j] = 0;
    }
}

bool remove() {
    bool vis[5][7] = {false}, flag = false;
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 7; j++) {
            if (a[i][j] == 0) continue;
            if (i <= 2 && a[i][j] == a[i + 1][j] && a[i][j] == a[i + 2][j]) {
                vis[i][j] = vis[i + 1][j] = vis[i + 2][j] = true;
                flag = true;
            }
            if (j <= 4 && a[i][j] == a[i][j + 1] && a[i][j] == a[i][j + 2]) {
                vis[i][j] = vis[i][j + 1] = vis[i][j + 2] = true;
                flag = true;
            }
        }
    }
    if (!flag) return false;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            if (vis[i][j]) a[i][j] = 0;
    return true;
}

bool check() {
    for (int i = 0; i < 5; i++)
        if (a[i][0]) return false;
    return true;
}

void move(int x, int y, int g) {
    swap(a[x][y], a[x + g][y]);
    fall();
    while (remove()) fall();
}

bool dfs(int k) {
    if (check()) return k == n;
    if (k == n) return false;
    int sum[11];
    memset(sum, 0, sizeof(sum));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++) sum[a[i][j]]++;
    for (int c = 1; c <= 10; c++)
        if (sum[c] == 1 || sum[c] == 2) return false;
    memcpy(last[k], a, sizeof(a));
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 7; j++) {
            if (!a[i][j]) break;
            if (i < 4) {
                move(i, j, 1);
                res[k][0] = i, res[k][1] = j, res[k][2] = 1;
                if (dfs(k + 1)) return true;
                memcpy(a, last[k], sizeof(a));
            }
            if (i > 0 && a[i - 1][j] == 0) {
                move(i, j, -1);
                res[k][0] = i, res[k][1] = j, res[k][2] = -1;
                if (dfs(k + 1)) return true;
                memcpy(a, last[k], sizeof(a));
            }
        }
    }
    return false;
}

int main() {
    scanf("%d", &n);
    for (int i = 0; i < 5; i++) {
        int x, j = 0;
        while (scanf("%d", &x) && x) a[i][j++] = x;
    }
    if (dfs(0)) {
        for (int i = 0; i < n; i++) printf("%d %d %d\n", res[i][0], res[i][1], res[i][2]);
    } else {
        puts("-1");
    }
    return 0;
}
