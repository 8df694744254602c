// Mayan puzzle: the board is a vector of columns, copied for every move.
#include <iostream>
#include <vector>
#include <array>
using namespace std;

using Board = vector<vector<int>>;

int total_moves;
vector<array<int, 3>> answer;

Board gravity(const Board& b) {
    Board out(5, vector<int>(7, 0));
    for (int col = 0; col < 5; ++col) {
        int k = 0;
        for (int row = 0; row < 7; ++row) {
            if (b[col][row] != 0) out[col][k++] = b[col][row];
        }
    }
    return out;
}

bool eliminate(Board& b) {
    vector<vector<bool>> gone(5, vector<bool>(7, false));
    bool changed = false;
    for (int col = 0; col < 5; ++col) {
        for (int row = 0; row < 7; ++row) {
            int v = b[col][row];
            if (v == 0) continue;
            if (row + 2 < 7 && b[col][row + 1] == v && b[col][row + 2] == v) {
                gone[col][row] = gone[col][row + 1] = gone[col][row + 2] = true;
            }
            if (col + 2 < 5 && b[col + 1][row] == v && b[col + 2][row] == v) {
                gone[col][row] = gone[col + 1][row] = gone[col + 2][row] = true;
            }
        }
    }
    for (int col = 0; col < 5; ++col)
        for (int row = 0; row < 7; ++row)
            if (gone[col][row]) {
                b[col][row] = 0;
                changed = true;
            }
    return changed;
}

Board apply_move(Board b, int col, int row, int dir) {
    swap(b[col][row], b[col + dir][row]);
    b = gravity(b);
    while (eliminate(b)) b = gravity(b);
    return b;
}

bool board_empty(const Board& b) {
    for (const auto& column : b)
        if (column[0] != 0) return false;
    return true;
}

bool has_lonely_colour(const Board& b) {
    int seen[11] = {};
    for (const auto& column : b)
        for (int v : column) seen[v]++;
    for (int c = 1; c <= 10; ++c)
        if (seen[c] > 0 && seen[c] < 3) return true;
    return false;
}

bool search(const Board& b, int depth) {
    if (board_empty(b)) return depth == total_moves;
    if (depth == total_moves || has_lonely_colour(b)) return false;
    for (int col = 0; col < 5; ++col) {
        for (int row = 0; row < 7 && b[col][row] != 0; ++row) {
            if (col + 1 < 5) {
                answer.push_back({col, row, 1});
                if (search(apply_move(b, col, row, 1), depth + 1)) return true;
                answer.pop_back();
            }
            if (col > 0 && b[col - 1][row] == 0) {
                answer.push_back({col, row, -1});
                if (search(apply_move(b, col, row, -1), depth + 1)) return true;
                answer.pop_back();
            }
        }
    }
    return false;
}

int main() {
    cin >> total_moves;
    Board start(5, vector<int>(7, 0));
    for (int col = 0; col < 5; ++col) {
        int v, row = 0;
        while (cin >> v && v != 0) start[col][row++] = v;
    }
    if (search(start, 0)) {
        for (auto& m : answer) cout << m[0] << " " << m[1] << " " << m[2] << "\n";
    } else {
        cout << "-1\n";
    }
}
