// Mayan puzzle: depth-first search without recursion, an explicit stack of frames.
#include <bits/stdc++.h>
typedef long long ll;
typedef std::vector<std::vector<int>> Grid;

Grid settle(Grid g) {
    for (;;) {
        for (auto &col : g) {
            col.erase(std::remove(col.begin(), col.end(), 0), col.end());
            col.resize(7, 0);
        }
        std::set<std::pair<int, int>> doomed;
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 7; j++) {
                int v = g[i][j];
                if (!v) continue;
                int r = i;
                while (r < 5 && g[r][j] == v) r++;
                if (r - i >= 3) for (int k = i; k < r; k++) doomed.insert({k, j});
                int u = j;
                while (u < 7 && g[i][u] == v) u++;
                if (u - j >= 3) for (int k = j; k < u; k++) doomed.insert({i, k});
            }
        if (doomed.empty()) return g;
        for (auto &p : doomed) g[p.first][p.second] = 0;
    }
}

bool impossible(const Grid &g) {
    std::map<int, int> tally;
    for (auto &col : g) for (int v : col) if (v) tally[v]++;
    for (auto &kv : tally) if (kv.second < 3) return true;
    return false;
}

struct Frame {
    Grid g;
    int next;  // next move to try, encoded as (i * 7 + j) * 2 + side
    int i, j, d;
};

int main() {
    int n;
    std::cin >> n;
    Grid start(5, std::vector<int>(7, 0));
    for (int i = 0; i < 5; i++) {
        int j = 0, v;
        while (std::cin >> v && v != 0) start[i][j++] = v;
    }
    std::vector<Frame> st;
    st.push_back({start, 0, 0, 0, 0});
    while (!st.empty()) {
        Frame &f = st.back();
        bool clear = true;
        for (auto &col : f.g) if (col[0]) clear = false;
        if (clear && (int)st.size() - 1 == n) {
            for (size_t k = 1; k < st.size(); k++) printf("%d %d %d\n", st[k].i, st[k].j, st[k].d);
            return 0;
        }
        if (clear || (int)st.size() - 1 == n || impossible(f.g) || f.next >= 70) {
            st.pop_back();
            continue;
        }
        int code = f.next++;
        int side = code % 2, cell = code / 2;
        int i = cell / 7, j = cell % 7, d = side ? -1 : 1;
        if (!f.g[i][j] || i + d < 0 || i + d > 4) continue;
        if (d < 0 && f.g[i + d][j]) continue;
        Grid h = f.g;
        std::swap(h[i][j], h[i + d][j]);
        st.push_back({settle(h), 0, i, j, d});
    }
    puts("-1");
    return 0;
}
