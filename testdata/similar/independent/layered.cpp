// mayan: one board per depth, moves recorded in arrays
#include <iostream>
#include <cstring>
using namespace std;

const int COL = 5, ROW = 7;
int steps;
int mp[8][COL][ROW];
int px[8], py[8], pd[8];

void drop(int b[COL][ROW]) {
    for (int x = 0; x < COL; x++) {
        int top = 0;
        for (int y = 0; y < ROW; y++)
            if (b[x][y] != 0) {
                int v = b[x][y];
                b[x][y] = 0;
                b[x][top++] = v;
            }
    }
}

bool clearOnce(int b[COL][ROW]) {
    bool del[COL][ROW];
    memset(del, false, sizeof(del));
    bool any = false;
    for (int x = 0; x < COL; x++)
        for (int y = 0; y < ROW; y++) {
            if (!b[x][y]) continue;
            if (x + 2 < COL && b[x + 1][y] == b[x][y] && b[x + 2][y] == b[x][y]) {
                del[x][y] = del[x + 1][y] = del[x + 2][y] = true;
                any = true;
            }
            if (y + 2 < ROW && b[x][y + 1] == b[x][y] && b[x][y + 2] == b[x][y]) {
                del[x][y] = del[x][y + 1] = del[x][y + 2] = true;
                any = true;
            }
        }
    for (int x = 0; x < COL; x++)
        for (int y = 0; y < ROW; y++)
            if (del[x][y]) b[x][y] = 0;
    return any;
}

bool prune(int b[COL][ROW]) {
    int num[11] = {0};
    for (int x = 0; x < COL; x++)
        for (int y = 0; y < ROW; y++) num[b[x][y]]++;
    for (int c = 1; c <= 10; c++)
        if (num[c] > 0 && num[c] < 3) return true;
    return false;
}

bool search(int d) {
    bool empty = true;
    for (int x = 0; x < COL; x++)
        if (mp[d][x][0]) empty = false;
    if (empty) return d == steps;
    if (d == steps || prune(mp[d])) return false;
    for (int x = 0; x < COL; x++)
        for (int y = 0; y < ROW && mp[d][x][y]; y++)
            for (int g = 1; g >= -1; g -= 2) {
                int nx = x + g;
                if (nx < 0 || nx >= COL) continue;
                if (g == -1 && mp[d][nx][y]) continue;
                memcpy(mp[d + 1], mp[d], sizeof(mp[d]));
                int t = mp[d + 1][x][y];
                mp[d + 1][x][y] = mp[d + 1][nx][y];
                mp[d + 1][nx][y] = t;
                drop(mp[d + 1]);
                while (clearOnce(mp[d + 1])) drop(mp[d + 1]);
                px[d] = x; py[d] = y; pd[d] = g;
                if (search(d + 1)) return true;
            }
    return false;
}

int main() {
    cin >> steps;
    for (int x = 0; x < COL; x++) {
        int v, y = 0;
        while (cin >> v && v) mp[0][x][y++] = v;
    }
    if (!search(0)) {
        cout << "-1" << endl;
        return 0;
    }
    for (int i = 0; i < steps; i++) cout << px[i] << " " << py[i] << " " << pd[i] << endl;
    return 0;
}
