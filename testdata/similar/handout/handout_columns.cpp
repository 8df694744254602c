// Handout outline (its is_empty is board_empty here: std has one): read_board, then dfs(depth) trying x, y, then right
// before left; settle is fall + clear_runs until nothing clears.
#include <iostream>
#include <vector>
using namespace std;

typedef vector<vector<int>> Board;
int n;
vector<int> path;

Board read_board() {
    cin >> n;
    Board b(5);
    for (int x = 0; x < 5; ++x) {
        int c;
        while (cin >> c && c) b[x].push_back(c);
    }
    return b;
}

void fall(Board &b) {
    for (auto &col : b) {
        vector<int> kept;
        for (int c : col)
            if (c > 0) kept.push_back(c);
        col = kept;
    }
}

bool clear_runs(Board &b) {
    auto at = [&](int x, int y) { return y < (int)b[x].size() ? b[x][y] : 0; };
    vector<vector<bool>> gone(5, vector<bool>(7, false));
    bool found = false;
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < (int)b[x].size(); ++y) {
            int c = b[x][y];
            if (x <= 2 && at(x + 1, y) == c && at(x + 2, y) == c) {
                for (int k = 0; k < 3; ++k) gone[x + k][y] = true;
                found = true;
            }
            if (at(x, y + 1) == c && at(x, y + 2) == c) {
                for (int k = 0; k < 3; ++k) gone[x][y + k] = true;
                found = true;
            }
        }
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < (int)b[x].size(); ++y)
            if (gone[x][y]) b[x][y] = -1;
    return found;
}

void settle(Board &b) {
    fall(b);
    while (clear_runs(b)) fall(b);
}

bool board_empty(const Board &b) {
    for (auto &col : b)
        if (!col.empty()) return false;
    return true;
}

bool dfs(const Board &b, int depth) {
    if (depth == n) return board_empty(b);
    for (int x = 0; x < 5; ++x) {
        for (int y = 0; y < (int)b[x].size(); ++y) {
            for (int g : {1, -1}) {
                int to = x + g;
                if (to < 0 || to >= 5) continue;
                Board next = b;
                if (y < (int)next[to].size()) {
                    swap(next[x][y], next[to][y]);
                } else {
                    next[to].push_back(next[x][y]);
                    next[x][y] = 0;
                }
                settle(next);
                path.push_back(x);
                path.push_back(y);
                path.push_back(g);
                if (dfs(next, depth + 1)) return true;
                path.resize(path.size() - 3);
            }
        }
    }
    return false;
}

int main() {
    Board start = read_board();
    if (!dfs(start, 0)) {
        cout << -1 << endl;
        return 0;
    }
    for (int i = 0; i < n; ++i)
        cout << path[3 * i] << ' ' << path[3 * i + 1] << ' ' << path[3 * i + 2] << '\n';
    return 0;
}
