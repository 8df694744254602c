#include <stdio.h>
#include <string.h>

#define W 5
#define H 7
#define LOOP(v, lo, hi) for (v = (lo); v < (hi); ++v)

typedef unsigned char cell;
typedef struct {
    cell g[W][H];
} Grid;

static int total;
static short ansx[8], ansy[8], ansd[8];

static void collapse(Grid *p)
{
    int a, b, top;
    LOOP(a, 0, W) {
        top = 0;
        LOOP(b, 0, H) {
            if (p->g[a][b] != 0)
                p->g[a][top++] = p->g[a][b];
        }
        for (; top < H; top++)
            p->g[a][top] = 0;
    }
}

static int vanish(Grid *p)
{
    char kill[W][H];
    int a, b, any = 0;
    memset(kill, 0, sizeof kill);
    LOOP(a, 0, W) LOOP(b, 0, H) {
        cell here = p->g[a][b];
        if (here == 0)
            continue;
        if (b <= H - 3) {
            int up1 = p->g[a][b + 1] == here;
            int up2 = p->g[a][b + 2] == here;
            if (up1 && up2)
                kill[a][b] = kill[a][b + 1] = kill[a][b + 2] = any = 1;
        }
        if (a <= W - 3) {
            int right1 = p->g[a + 1][b] == here;
            int right2 = p->g[a + 2][b] == here;
            if (right1 && right2)
                kill[a][b] = kill[a + 1][b] = kill[a + 2][b] = any = 1;
        }
    }
    LOOP(a, 0, W) LOOP(b, 0, H) {
        if (kill[a][b])
            p->g[a][b] = 0;
    }
    return any;
}

static int doomed(const Grid *p)
{
    long tally[11];
    int a, b, bad = 0;
    memset(tally, 0, sizeof tally);
    LOOP(a, 0, W) LOOP(b, 0, H) tally[p->g[a][b]]++;
    LOOP(a, 1, 11) bad = (tally[a] == 1 || tally[a] == 2) ? 1 : bad;
    return bad;
}

static int bare(const Grid *p)
{
    int a;
    LOOP(a, 0, W) {
        if (p->g[a][0])
            return 0;
    }
    return 1;
}

static int dfs(const Grid *p, int depth)
{
    int a, b, dir;
    if (depth == total)
        return bare(p);
    if (doomed(p))
        return 0;
    LOOP(a, 0, W) for (b = 0; b < H && p->g[a][b]; b++) {
        for (dir = 1; dir >= -1; dir -= 2) {
            int to = a + dir;
            Grid q;
            cell tmp;
            if (to < 0 || to >= W)
                continue;
            if (dir == 1 ? p->g[to][b] == p->g[a][b] : p->g[to][b] != 0)
                continue;
            ansx[depth] = a, ansy[depth] = b, ansd[depth] = dir;
            q = *p;
            tmp = q.g[a][b];
            q.g[a][b] = q.g[to][b];
            q.g[to][b] = tmp;
            do
                collapse(&q);
            while (vanish(&q));
            if (dfs(&q, depth + 1))
                return 1;
        }
    }
    return 0;
}

static char buf[1 << 16];

int main(void)
{
    Grid start;
    int a, b, pos = 0, len;
    int nums[64], cnt = 0;
    len = (int)fread(buf, 1, sizeof buf - 1, stdin);
    buf[len] = 0;
    while (pos < len && cnt < 64) {
        int val = 0, seen = 0;
        while (pos < len && (buf[pos] < '0' || buf[pos] > '9'))
            pos++;
        while (pos < len && buf[pos] >= '0' && buf[pos] <= '9') {
            val = val * 10 + (buf[pos++] - '0');
            seen = 1;
        }
        if (seen)
            nums[cnt++] = val;
    }
    memset(&start, 0, sizeof start);
    total = nums[0];
    pos = 1;
    LOOP(a, 0, W) {
        for (b = 0; nums[pos] != 0; b++)
            start.g[a][b] = (cell)nums[pos++];
        pos++;
    }
    if (dfs(&start, 0))
        LOOP(a, 0, total) printf("%d %d %d\n", ansx[a], ansy[a], ansd[a]);
    else
        puts("-1");
    return 0;
}
