#include <bits/stdc++.h>
using namespace std;

// puzzle solver
long long steps;
long long g_cells[5][7];
long long backup[6][5][7];
long long result[6][3];

static void drop_column(int col) {
    int h = 0;
    for (int r = 0; r < 7; r++) {
        long long v = g_cells[col][r];
        if (v == 0) continue;
        g_cells[col][r] = 0;
        g_cells[col][h] = v;
        h++;
    }
}

static bool wipe() {
    bool hit[5][7] = {};
    bool changed = false;
    for (int c = 0; c < 5; c++) {
        for (int r = 0; r < 7; r++) {
            long long v = g_cells[c][r];
            if (v == 0) continue;
            bool across = c + 2 < 5;
            if (across) {
                long long a1 = g_cells[c + 1][r], a2 = g_cells[c + 2][r];
                across = a1 == v && a2 == v;
            }
            if (across) {
                changed = true;
                hit[c][r] = hit[c + 1][r] = hit[c + 2][r] = true;
            }
            bool up = r + 2 < 7;
            if (up) {
                long long u1 = g_cells[c][r + 1], u2 = g_cells[c][r + 2];
                up = u1 == v && u2 == v;
            }
            if (up) {
                changed = true;
                hit[c][r] = hit[c][r + 1] = hit[c][r + 2] = true;
            }
        }
    }
    for (int c = 0; c < 5; c++)
        for (int r = 0; r < 7; r++)
            g_cells[c][r] = hit[c][r] ? 0 : g_cells[c][r];
    return changed;
}

static void exchange(int c, int r, int to) {
    long long keep = g_cells[c][r];
    g_cells[c][r] = g_cells[to][r];
    g_cells[to][r] = keep;
}

bool search(int depth) {
    if (depth == steps) {
        bool clear = true;
        for (int c = 0; c < 5; c++) clear = clear && g_cells[c][0] == 0;
        return clear;
    }
    memcpy(backup[depth], g_cells, sizeof g_cells);
    for (int c = 0; c < 5; c++) {
        for (int r = 0; r < 7; r++) {
            if (!g_cells[c][r]) break;
            for (int k = 0; k < 2; k++) {
                int dir;
                switch (k) {
                case 0:
                    dir = 1;
                    break;
                default:
                    dir = -1;
                }
                int to = c + dir;
                if (to > 4 || to < 0) continue;
                exchange(c, r, to);
                for (;;) {
                    for (int col = 0; col < 5; col++) drop_column(col);
                    if (!wipe()) break;
                }
                result[depth][2] = dir;
                result[depth][0] = c;
                result[depth][1] = r;
                if (search(depth + 1)) return true;
                memcpy(g_cells, backup[depth], sizeof g_cells);
            }
        }
    }
    return false;
}

int main() {
    cin >> steps;
    for (int c = 0; c < 5; c++) {
        int r = 0;
        long long v;
        while (cin >> v && v) {
            g_cells[c][r] = v;
            r++;
        }
    }
    bool ok = search(0);
    if (!ok) {
        cout << "-1" << endl;
        return 0;
    }
    for (int i = 0; i < steps; i++) cout << result[i][0] << " " << result[i][1] << " " << result[i][2] << endl;
    return 0;
}
