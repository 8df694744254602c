// Mayan puzzle with vectors: each state copied, the outline's steps in order.
#include <bits/stdc++.h>
using namespace std;

typedef vector<vector<int>> Grid;
int N;
vector<array<int, 3>> answer;

void gravity(Grid &g) {
    for (auto &col : g) {
        vector<int> keep;
        for (int v : col)
            if (v) keep.push_back(v);
        keep.resize(7, 0);
        col = keep;
    }
}

bool vanish(Grid &g) {
    vector<vector<bool>> hit(5, vector<bool>(7, false));
    bool changed = false;
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 7; j++) {
            int v = g[i][j];
            if (v == 0) continue;
            if (i < 3 && g[i + 1][j] == v && g[i + 2][j] == v) {
                for (int k = 0; k < 3; k++) hit[i + k][j] = true;
                changed = true;
            }
            if (j < 5 && g[i][j + 1] == v && g[i][j + 2] == v) {
                for (int k = 0; k < 3; k++) hit[i][j + k] = true;
                changed = true;
            }
        }
    }
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            if (hit[i][j]) g[i][j] = 0;
    return changed;
}

bool bad(const Grid &g) {
    map<int, int> seen;
    for (auto &col : g)
        for (int v : col)
            if (v) seen[v]++;
    for (auto &p : seen)
        if (p.second < 3) return true;
    return false;
}

bool go(const Grid &g, int depth) {
    if (depth == N) {
        for (int i = 0; i < 5; i++)
            if (g[i][0] != 0) return false;
        return true;
    }
    if (bad(g)) return false;
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 7; j++) {
            if (g[i][j] == 0) break;
            for (int d : {1, -1}) {
                int ni = i + d;
                if (ni < 0 || ni > 4) continue;
                if (d == 1 && g[ni][j] == g[i][j]) continue;
                if (d == -1 && g[ni][j] != 0) continue;
                Grid h = g;
                swap(h[i][j], h[ni][j]);
                gravity(h);
                while (vanish(h)) gravity(h);
                answer.push_back({i, j, d});
                if (go(h, depth + 1)) return true;
                answer.pop_back();
            }
        }
    }
    return false;
}

int main() {
    ios::sync_with_stdio(false);
    cin >> N;
    Grid g(5, vector<int>(7, 0));
    for (int i = 0; i < 5; i++) {
        for (int j = 0;; j++) {
            int v;
            cin >> v;
            if (!v) break;
            g[i][j] = v;
        }
    }
    if (!go(g, 0)) {
        puts("-1");
        return 0;
    }
    for (auto &m : answer) printf("%d %d %d\n", m[0], m[1], m[2]);
}
