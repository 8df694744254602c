#include <stdio.h>
#include <string.h>

int n, map[5][7], bak[6][5][7], ans[6][3];

void down(void) {
    int x, y, k;
    for (x = 0; x < 5; x++) {
        k = 0;
        for (y = 0; y < 7; y++)
            if (map[x][y]) map[x][k++] = map[x][y];
        for (y = k; y < 7; y++) map[x][y] = 0;
    }
}

int del(void) {
    int f[5][7], x, y, r = 0;
    memset(f, 0, sizeof f);
    for (x = 0; x < 5; x++)
        for (y = 0; y < 7; y++) {
            int c = map[x][y];
            if (!c) continue;
            if (x < 3 && map[x + 1][y] == c && map[x + 2][y] == c) f[x][y] = f[x + 1][y] = f[x + 2][y] = 1;
            if (y < 5 && map[x][y + 1] == c && map[x][y + 2] == c) f[x][y] = f[x][y + 1] = f[x][y + 2] = 1;
        }
    for (x = 0; x < 5; x++)
        for (y = 0; y < 7; y++)
            if (f[x][y]) { map[x][y] = 0; r = 1; }
    return r;
}

int dfs(int s) {
    int x, y, c, cnt[11] = {0}, left = 0;
    for (x = 0; x < 5; x++)
        for (y = 0; y < 7; y++) { cnt[map[x][y]]++; if (map[x][y]) left++; }
    if (left == 0) return s == n;
    if (s == n) return 0;
    for (c = 1; c <= 10; c++)
        if (cnt[c] == 1 || cnt[c] == 2) return 0;
    memcpy(bak[s], map, sizeof map);
    for (x = 0; x < 5; x++)
        for (y = 0; y < 7 && map[x][y]; y++) {
            if (x < 4) {
                int t = map[x][y]; map[x][y] = map[x + 1][y]; map[x + 1][y] = t;
                down();
                while (del()) down();
                ans[s][0] = x; ans[s][1] = y; ans[s][2] = 1;
                if (dfs(s + 1)) return 1;
                memcpy(map, bak[s], sizeof map);
            }
            if (x > 0 && map[x - 1][y] == 0) {
                map[x - 1][y] = map[x][y]; map[x][y] = 0;
                down();
                while (del()) down();
                ans[s][0] = x; ans[s][1] = y; ans[s][2] = -1;
                if (dfs(s + 1)) return 1;
                memcpy(map, bak[s], sizeof map);
            }
        }
    return 0;
}

int main(void) {
    int x, y, v;
    scanf("%d", &n);
    for (x = 0; x < 5; x++) {
        y = 0;
        while (scanf("%d", &v) == 1 && v != 0) map[x][y++] = v;
    }
    if (!dfs(0)) { printf("-1\n"); return 0; }
    for (x = 0; x < n; x++) printf("%d %d %d\n", ans[x][0], ans[x][1], ans[x][2]);
    return 0;
}
