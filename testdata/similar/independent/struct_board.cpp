// Mayan puzzle: a Board struct with methods; moves kept in a vector.
#include <iostream>
#include <array>
#include <vector>
using namespace std;

struct Move { int x, y, g; };

struct Board {
    array<array<int, 7>, 5> c{};

    void drop() {
        for (auto &col : c) {
            array<int, 7> out{};
            int k = 0;
            for (int v : col) if (v != 0) out[k++] = v;
            col = out;
        }
    }

    bool vanish() {
        array<array<bool, 7>, 5> gone{};
        bool changed = false;
        for (int y = 0; y < 7; ++y) {
            int run = 1;
            for (int x = 1; x <= 5; ++x) {
                if (x < 5 && c[x][y] != 0 && c[x][y] == c[x - 1][y]) { run++; continue; }
                if (run >= 3) { for (int t = x - run; t < x; ++t) gone[t][y] = true; changed = true; }
                run = 1;
            }
        }
        for (int x = 0; x < 5; ++x) {
            int run = 1;
            for (int y = 1; y <= 7; ++y) {
                if (y < 7 && c[x][y] != 0 && c[x][y] == c[x][y - 1]) { run++; continue; }
                if (run >= 3) { for (int t = y - run; t < y; ++t) gone[x][t] = true; changed = true; }
                run = 1;
            }
        }
        for (int x = 0; x < 5; ++x)
            for (int y = 0; y < 7; ++y)
                if (gone[x][y]) c[x][y] = 0;
        return changed;
    }

    void stabilise() {
        drop();
        while (vanish()) drop();
    }

    bool cleared() const {
        for (auto &col : c) if (col[0]) return false;
        return true;
    }

    bool hopeless() const {
        int seen[11] = {0};
        for (auto &col : c) for (int v : col) if (v) seen[v]++;
        for (int k = 1; k < 11; ++k) if (seen[k] > 0 && seen[k] < 3) return true;
        return false;
    }
};

int steps;
vector<Move> path;

bool search(const Board &b) {
    if (b.cleared()) return (int)path.size() == steps;
    if ((int)path.size() == steps || b.hopeless()) return false;
    for (int x = 0; x < 5; ++x) {
        for (int y = 0; y < 7; ++y) {
            if (!b.c[x][y]) break;
            for (int g : {1, -1}) {
                int nx = x + g;
                if (nx < 0 || nx > 4) continue;
                if (g == -1 && b.c[nx][y]) continue;
                Board next = b;
                swap(next.c[x][y], next.c[nx][y]);
                next.stabilise();
                path.push_back({x, y, g});
                if (search(next)) return true;
                path.pop_back();
            }
        }
    }
    return false;
}

int main() {
    Board start;
    cin >> steps;
    for (int x = 0; x < 5; ++x) {
        int v, y = 0;
        while (cin >> v && v) start.c[x][y++] = v;
    }
    if (search(start)) {
        for (auto &m : path) cout << m.x << ' ' << m.y << ' ' << m.g << '\n';
    } else {
        cout << -1 << endl;
    }
}
