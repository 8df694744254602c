#include <cstdio>
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <vector>
using namespace std;

#define REP(k, n) for (int k = 0; k < (n); ++k)
typedef array<array<short, 7>, 5> Field;

static void compact(Field &f) {
    for (auto &c : f) {
        auto last = remove(c.begin(), c.end(), (short)0);
        fill(last, c.end(), (short)0);
    }
}

static Field stabilize(Field f) {
    while (true) {
        compact(f);
        set<pair<int, int>> gone;
        REP(a, 5) REP(b, 7) {
            short col = f[a][b];
            if (col == 0) continue;
            int up = b;
            while (up < 7 && f[a][up] == col) ++up;
            if (up - b >= 3) for (int t = b; t < up; ++t) gone.insert(make_pair(a, t));
            int right = a;
            while (right < 5 && f[right][b] == col) ++right;
            if (right - a >= 3) for (int t = a; t < right; ++t) gone.insert(make_pair(t, b));
        }
        if (gone.empty()) break;
        for (const auto &q : gone) f[q.first][q.second] = 0;
    }
    return f;
}

static bool blank(const Field &f) {
    REP(a, 5) if (f[a][0]) return false;
    return true;
}

struct Node {
    Field f;
    int cursor;
    int a, b, dir;
};

int main() {
    int depth;
    Field init{};
    if (scanf("%d", &depth) != 1) return 0;
    REP(a, 5) {
        int b = 0, v;
        while (scanf("%d", &v) == 1 && v) init[a][b++] = (short)v;
    }
    vector<Node> todo;
    todo.push_back(Node{init, 0, 0, 0, 0});
    while (!todo.empty()) {
        int made = (int)todo.size() - 1;
        Node &top = todo.back();
        bool done = blank(top.f);
        if (done && made == depth) {
            for (size_t k = 1; k < todo.size(); ++k) printf("%d %d %d\n", todo[k].a, todo[k].b, todo[k].dir);
            return 0;
        }
        map<int, int> cnt;
        for (auto &c : top.f) for (short v : c) if (v) ++cnt[v];
        bool hopeless = false;
        for (auto &e : cnt) hopeless = hopeless || e.second < 3;
        if (done || made == depth || top.cursor >= 70 || hopeless) {
            todo.pop_back();
            continue;
        }
        int code = top.cursor++;
        int a = code / 2 / 7, b = code / 2 % 7;
        int dir = code % 2 == 0 ? 1 : -1;
        int to = a + dir;
        if (top.f[a][b] == 0 || to < 0 || to > 4) continue;
        if (dir == -1 && top.f[to][b] != 0) continue;
        Field g = top.f;
        swap(g[to][b], g[a][b]);
        Node child{stabilize(g), 0, a, b, dir};
        todo.push_back(child);
    }
    printf("-1\n");
    return 0;
}
