/* NOIP 2011 mayan: global board, one saved copy per step, classic contest style */
#include <stdio.h>
#include <string.h>

int n;
int g[6][8];
int save[8][6][8];
int rx[8], ry[8], rg[8];

void drop(void)
{
    int i, j, k;
    for (i = 0; i < 5; i++) {
        k = 0;
        for (j = 0; j < 7; j++)
            if (g[i][j]) {
                g[i][k] = g[i][j];
                if (k != j) g[i][j] = 0;
                k++;
            }
    }
}

int erase(void)
{
    int del[6][8];
    int i, j, ok = 0;
    memset(del, 0, sizeof(del));
    for (i = 0; i < 5; i++)
        for (j = 0; j < 7; j++) {
            if (!g[i][j]) continue;
            if (i + 2 < 5 && g[i][j] == g[i + 1][j] && g[i][j] == g[i + 2][j])
                del[i][j] = del[i + 1][j] = del[i + 2][j] = 1;
            if (j + 2 < 7 && g[i][j] == g[i][j + 1] && g[i][j] == g[i][j + 2])
                del[i][j] = del[i][j + 1] = del[i][j + 2] = 1;
        }
    for (i = 0; i < 5; i++)
        for (j = 0; j < 7; j++)
            if (del[i][j]) { g[i][j] = 0; ok = 1; }
    return ok;
}

int finished(void)
{
    int i;
    for (i = 0; i < 5; i++)
        if (g[i][0]) return 0;
    return 1;
}

int hopeless(void)
{
    int num[12], i, j;
    memset(num, 0, sizeof(num));
    for (i = 0; i < 5; i++)
        for (j = 0; j < 7; j++)
            num[g[i][j]]++;
    for (i = 1; i <= 10; i++)
        if (num[i] == 1 || num[i] == 2) return 1;
    return 0;
}

void move(int x, int y, int d)
{
    int t = g[x][y];
    g[x][y] = g[x + d][y];
    g[x + d][y] = t;
    drop();
    while (erase()) drop();
}

int dfs(int step)
{
    int i, j;
    if (finished()) return step == n;
    if (step == n || hopeless()) return 0;
    memcpy(save[step], g, sizeof(g));
    for (i = 0; i < 5; i++)
        for (j = 0; j < 7; j++) {
            if (!g[i][j]) break;
            if (i < 4) {
                move(i, j, 1);
                rx[step] = i; ry[step] = j; rg[step] = 1;
                if (dfs(step + 1)) return 1;
                memcpy(g, save[step], sizeof(g));
            }
            if (i > 0 && !g[i - 1][j]) {
                move(i, j, -1);
                rx[step] = i; ry[step] = j; rg[step] = -1;
                if (dfs(step + 1)) return 1;
                memcpy(g, save[step], sizeof(g));
            }
        }
    return 0;
}

int main()
{
    int i, j, x;
    scanf("%d", &n);
    for (i = 0; i < 5; i++) {
        j = 0;
        while (scanf("%d", &x) == 1 && x) g[i][j++] = x;
    }
    if (dfs(0))
        for (i = 0; i < n; i++) printf("%d %d %d\n", rx[i], ry[i], rg[i]);
    else
        printf("-1\n");
    return 0;
}
