#include <cstdio>
#include <array>
#include <vector>
using namespace std;
#define FOR(i, a, b) for (int i = (a); i < (b); ++i)

struct Step { long px, py, dir; };

// the grid of the puzzle
struct Grid {
    array<array<long, 7>, 5> cell{};

    void compact() {
        for (auto &column : cell) {
            array<long, 7> res{};
            long top = 0;
            for (long v : column) if (v != 0) res[top++] = v;
            column = res;
        }
    }

    bool removeRuns() {
        array<array<bool, 7>, 5> del{};
        bool any = false;
        FOR(row, 0, 7) {
            long len = 1;
            for (int col = 1; col <= 5; ++col) {
                bool same = col < 5 && cell[col][row] != 0;
                if (same && cell[col][row] == cell[col - 1][row]) { len++; continue; }
                if (len >= 3) { FOR(t, col - len, col) del[t][row] = true; any = true; }
                len = 1;
            }
        }
        FOR(col, 0, 5) {
            long len = 1;
            for (int row = 1; row <= 7; ++row) {
                bool same = row < 7 && cell[col][row] != 0;
                if (same && cell[col][row] == cell[col][row - 1]) { len++; continue; }
                if (len >= 3) { FOR(t, row - len, row) del[col][t] = true; any = true; }
                len = 1;
            }
        }
        FOR(col, 0, 5) FOR(row, 0, 7) if (del[col][row]) cell[col][row] = 0;
        return any;
    }

    bool empty() const {
        for (auto &column : cell) if (column[0]) return false;
        return true;
    }

    bool doomed() const {
        long cnt[11] = {0};
        for (auto &column : cell) for (long v : column) if (v) cnt[v]++;
        FOR(k, 1, 11) if (cnt[k] > 0 && cnt[k] < 3) return true;
        return false;
    }
};

vector<Step> moves;
long total;

bool dfs(const Grid &now) {
    long done = moves.size();
    if (now.empty()) return done == total ? true : false;
    if (done == total || now.doomed()) return false;
    FOR(px, 0, 5) {
        FOR(py, 0, 7) {
            if (!now.cell[px][py]) break;
            for (int dir : {1, -1}) {
                int qx = px + dir;
                bool outside = qx < 0 || qx > 4;
                if (outside) continue;
                if (dir == -1 && now.cell[qx][py]) continue;
                Grid nxt = now;
                swap(nxt.cell[px][py], nxt.cell[qx][py]);
                nxt.compact();
                while (nxt.removeRuns()) nxt.compact();
                moves.push_back({px, py, dir});
                if (dfs(nxt)) return true;
                moves.pop_back();
            }
        }
    }
    return false;
}

int main() {
    Grid first;
    scanf("%ld", &total);
    FOR(px, 0, 5) {
        long v, py = 0;
        while (scanf("%ld", &v) == 1 && v) first.cell[px][py++] = v;
    }
    if (!dfs(first)) {
        printf("-1\n");
        return 0;
    }
    for (auto &s : moves) printf("%ld %ld %ld\n", s.px, s.py, s.dir);
}
