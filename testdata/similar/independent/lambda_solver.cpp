// Mayan puzzle: everything in main, helpers as lambdas, the board a std::string of 35 chars.
#include <iostream>
#include <string>
#include <functional>
#include <vector>
#include <tuple>

int main() {
    int n;
    std::cin >> n;
    std::string start(35, '0');
    for (int c = 0; c < 5; c++) {
        int v, r = 0;
        while (std::cin >> v && v) start[c * 7 + r++] = char('0' + v);
    }
    auto get = [](const std::string &s, int c, int r) { return s[c * 7 + r]; };
    auto tidy = [&](std::string s) {
        bool again = true;
        while (again) {
            for (int c = 0; c < 5; c++) {
                std::string col;
                for (int r = 0; r < 7; r++) if (get(s, c, r) != '0') col += get(s, c, r);
                col.resize(7, '0');
                s.replace(c * 7, 7, col);
            }
            std::vector<int> hit;
            for (int i = 0; i < 35; i++) {
                int c = i / 7, r = i % 7;
                char v = s[i];
                if (v == '0') continue;
                if (c <= 2 && get(s, c + 1, r) == v && get(s, c + 2, r) == v)
                    for (int k : {0, 7, 14}) hit.push_back(i + k);
                if (r <= 4 && get(s, c, r + 1) == v && get(s, c, r + 2) == v)
                    for (int k : {0, 1, 2}) hit.push_back(i + k);
            }
            again = !hit.empty();
            for (int i : hit) s[i] = '0';
        }
        return s;
    };
    auto blocked = [](const std::string &s) {
        for (char ch = '1'; ch <= '9' + 1; ch++) {
            int k = 0;
            for (char x : s) k += x == ch;
            if (k == 1 || k == 2) return true;
        }
        return false;
    };
    std::vector<std::tuple<int, int, int>> trail;
    std::function<bool(const std::string &)> rec = [&](const std::string &s) -> bool {
        if (s == std::string(35, '0')) return (int)trail.size() == n;
        if ((int)trail.size() == n || blocked(s)) return false;
        for (int c = 0; c < 5; c++)
            for (int r = 0; r < 7 && get(s, c, r) != '0'; r++)
                for (int d : {1, -1}) {
                    if (c + d < 0 || c + d > 4) continue;
                    if (d == -1 && get(s, c - 1, r) != '0') continue;
                    std::string t = s;
                    std::swap(t[c * 7 + r], t[(c + d) * 7 + r]);
                    trail.emplace_back(c, r, d);
                    if (rec(tidy(t))) return true;
                    trail.pop_back();
                }
        return false;
    };
    if (!rec(start)) {
        std::cout << "-1\n";
        return 0;
    }
    for (auto [c, r, d] : trail) std::cout << c << " " << r << " " << d << "\n";
}
