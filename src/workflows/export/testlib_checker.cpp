// Checker for the Mayan puzzle (NOIP 2011), testlib protocol.
//
// Written by `mayan-judge export` (Polygon, Hydro, LOJ, UOJ): a self-contained
// copy of the judge's checker (src/puzzle/checker.rs in mayan-judge) under the
// literal rules of its RULES.md, in C++11 against testlib.h, which the judge
// supplies (Polygon, Hydro, LOJ and UOJ all do; do not upload it with this
// file where the judge says so).
//
//     check INPUT OUTPUT ANSWER [RESULT_FILE [-appes]]
//
// ok (exit 0): the output is exactly n legal moves that leave the board
// empty (a board emptied before the n-th move is not a solution) and equal
// the answer file's moves, which are the smallest solution; or both say -1.
// With ACCEPT_ANY (package setting `accept = "any"`), any valid solution.
// wrong answer (1), wrong output format (2): the contestant's fault.
// FAIL (3): a bad input or answer file, never the contestant's fault.
//
// The files are read byte by byte through testlib's streams and parsed here,
// exactly as the other implementations parse them (whitespace is space, tab,
// CR, LF and form feed), so that testlib's own token rules cannot differ
// from the judge's.

#include "testlib.h"

#include <string>
#include <vector>

const bool ACCEPT_ANY = false;  // [checker] accept = "smallest"

namespace {

const int WIDTH = 5;   // columns, x = 0..4 from left to right
const int HEIGHT = 7;  // rows, y = 0..6 from bottom to top
const long long MAX_COLOUR = 10;
const long long MAX_MOVES = 12;
const long long I64_MAX = 9223372036854775807LL;

typedef std::vector<std::string> Tokens;
typedef std::vector<std::vector<int> > Board;  // board[x][y], 0 = empty

struct Move {
    long long x, y, g;
};

// A problem with the input or answer file: the judge's fault.
struct JudgeError {
    std::string message;
};

// The contestant's output is wrong: WA or PE.
struct Rejected {
    TResult verdict;
    std::string message;
    size_t move;  // the 1-based move to blame, or 0
};

std::string str(long long v) { return vtos(v); }

// ---- tokens ------------------------------------------------------------------

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

Tokens tokens(const std::string& text) {
    Tokens out;
    std::string cur;
    bool in_token = false;
    for (size_t i = 0; i < text.size(); i++) {
        if (is_space(text[i])) {
            if (in_token) out.push_back(cur);
            cur.clear();
            in_token = false;
        } else {
            cur += text[i];
            in_token = true;
        }
    }
    if (in_token) out.push_back(cur);
    return out;
}

// A decimal integer with an optional sign; values beyond the 64-bit range
// saturate, so a huge number is still a number out of range.
bool parse_int(const std::string& tok, long long& value) {
    size_t start = 0;
    bool neg = false;
    if (!tok.empty() && (tok[0] == '-' || tok[0] == '+')) {
        neg = tok[0] == '-';
        start = 1;
    }
    if (start == tok.size()) return false;
    long long v = 0;
    for (size_t i = start; i < tok.size(); i++) {
        if (tok[i] < '0' || tok[i] > '9') return false;
        long long d = tok[i] - '0';
        v = v > (I64_MAX - d) / 10 ? I64_MAX : v * 10 + d;
    }
    value = neg ? -v : v;
    return true;
}

// A token for a message: at most 20 characters, printable ASCII.
std::string show_token(const std::string& tok) {
    std::string s;
    for (size_t i = 0; i < tok.size() && i < 20; i++)
        s += (tok[i] >= 32 && tok[i] < 127) ? tok[i] : '?';
    return tok.size() > 20 ? s + "..." : s;
}

// ---- the simulator (RULES.md: Move, Settle) -------------------------------------

bool is_empty(const Board& b) {
    for (int x = 0; x < WIDTH; x++)
        for (int y = 0; y < HEIGHT; y++)
            if (b[x][y]) return false;
    return true;
}

int block_count(const Board& b) {
    int n = 0;
    for (int x = 0; x < WIDTH; x++)
        for (int y = 0; y < HEIGHT; y++) n += b[x][y] != 0;
    return n;
}

// Every cell in a horizontal or vertical run of three or more equal colours,
// all runs at once; returns whether any.
bool marked_cells(const Board& b, std::vector<std::vector<bool> >& marked) {
    marked.assign(WIDTH, std::vector<bool>(HEIGHT, false));
    bool any = false;
    for (int y = 0; y < HEIGHT; y++)
        for (int x = 0; x + 2 < WIDTH; x++) {
            int c = b[x][y];
            if (c && b[x + 1][y] == c && b[x + 2][y] == c) {
                marked[x][y] = marked[x + 1][y] = marked[x + 2][y] = true;
                any = true;
            }
        }
    for (int x = 0; x < WIDTH; x++)
        for (int y = 0; y + 2 < HEIGHT; y++) {
            int c = b[x][y];
            if (c && b[x][y + 1] == c && b[x][y + 2] == c) {
                marked[x][y] = marked[x][y + 1] = marked[x][y + 2] = true;
                any = true;
            }
        }
    return any;
}

// Gravity, then remove every run of three or more at once; repeat until
// nothing is removed.
void settle(Board& b) {
    std::vector<std::vector<bool> > marked;
    while (true) {
        for (int x = 0; x < WIDTH; x++) {
            std::vector<int> col;
            for (int y = 0; y < HEIGHT; y++)
                if (b[x][y]) col.push_back(b[x][y]);
            col.resize(HEIGHT, 0);
            b[x] = col;
        }
        if (!marked_cells(b, marked)) return;
        for (int x = 0; x < WIDTH; x++)
            for (int y = 0; y < HEIGHT; y++)
                if (marked[x][y]) b[x][y] = 0;
    }
}

// Why `x y g` is not a legal move here, or "" when it is.
std::string illegal_reason(const Board& b, const Move& m) {
    if (is_empty(b)) return "the board is already empty";
    if (m.x < 0 || m.x >= WIDTH) return "x = " + str(m.x) + " is off the board (0..4)";
    if (m.y < 0 || m.y >= HEIGHT) return "y = " + str(m.y) + " is off the board (0..6)";
    if (m.g != 1 && m.g != -1) return "g = " + str(m.g) + " must be 1 or -1";
    if (m.x + m.g < 0 || m.x + m.g >= WIDTH)
        return "x + g = " + str(m.x + m.g) + " moves the block off the board";
    if (b[m.x][m.y] == 0) return "cell (" + str(m.x) + ", " + str(m.y) + ") is empty";
    return "";
}

// Plays a legal move: the block trades places with its neighbour (a block of
// any colour, or an empty cell), then the board settles.
void play(Board& b, const Move& m) {
    std::swap(b[m.x][m.y], b[m.x + m.g][m.y]);
    settle(b);
}

// ---- the puzzle -----------------------------------------------------------------

struct Puzzle {
    long long n;
    Board board;
};

Puzzle parse_puzzle(const std::string& text) {
    Tokens toks = tokens(text);
    size_t pos = 0;
    struct Reader {
        const Tokens& toks;
        size_t& pos;
        long long next(const std::string& where) {
            if (pos >= toks.size()) throw JudgeError{"invalid puzzle: input ends " + where};
            const std::string& tok = toks[pos++];
            long long v;
            if (!parse_int(tok, v))
                throw JudgeError{"invalid puzzle: token " + vtos(pos) + " `" + show_token(tok) +
                                 "` is not an integer"};
            return v;
        }
    } r = {toks, pos};
    Puzzle p;
    p.n = r.next("before n");
    if (p.n < 1 || p.n > MAX_MOVES)
        throw JudgeError{"invalid puzzle: n = " + str(p.n) + " is outside 1..12"};
    p.board.assign(WIDTH, std::vector<int>(HEIGHT, 0));
    for (int x = 0; x < WIDTH; x++) {
        for (int y = 0;; y++) {
            long long c = r.next("inside column " + str(x));
            if (c == 0) break;
            if (c < 1 || c > MAX_COLOUR)
                throw JudgeError{"invalid puzzle: colour " + str(c) + " is outside 1..10"};
            if (y == HEIGHT)
                throw JudgeError{"invalid puzzle: column " + str(x) + " holds more than 7 blocks"};
            p.board[x][y] = int(c);
        }
    }
    if (pos < toks.size())
        throw JudgeError{"invalid puzzle: token " + vtos(pos + 1) + " `" + show_token(toks[pos]) +
                         "` after the last column"};
    std::vector<std::vector<bool> > marked;
    if (marked_cells(p.board, marked))
        throw JudgeError{"invalid puzzle: the starting board holds a run of three"};
    return p;
}

// ---- answers ----------------------------------------------------------------------

// The moves of an output or answer file (at most n); `minus_one` for `-1`.
// Rejected with PE when the text is not in the output format.
struct Answer {
    bool minus_one;
    std::vector<Move> moves;
};

Rejected pe(const std::string& message) { return Rejected{_pe, message, 0}; }
Rejected wa(const std::string& message, size_t move = 0) { return Rejected{_wa, message, move}; }

Answer parse_answer(const std::string& text, long long n) {
    Answer a;
    a.minus_one = false;
    size_t start = 0;
    for (long long line = 1; start <= text.size(); line++) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        Tokens toks = tokens(text.substr(start, end - start));
        start = end + 1;
        if (toks.empty()) continue;
        std::string at = "line " + str(line) + ": ";
        if (a.minus_one) throw pe(at + "`-1` must be the only line");
        if (toks.size() == 1 && toks[0] == "-1") {
            if (!a.moves.empty()) throw pe(at + "`-1` must be the only line");
            a.minus_one = true;
            continue;
        }
        long long v[3];
        for (size_t i = 0; i < toks.size() && i < 3; i++)
            if (!parse_int(toks[i], v[i]))
                throw pe(at + "token `" + show_token(toks[i]) + "` is not an integer");
        if (toks.size() != 3)
            throw pe(at + "expected 3 integers `x y g`, found " + vtos(toks.size()) + " tokens");
        if ((long long)a.moves.size() == n) throw pe(at + "more than n = " + str(n) + " moves");
        Move m = {v[0], v[1], v[2]};
        a.moves.push_back(m);
    }
    if (!a.minus_one && a.moves.empty()) throw pe("empty output: expected n moves or -1");
    return a;
}

std::string move_text(const Move& m) { return str(m.x) + " " + str(m.y) + " " + str(m.g); }

// Replays moves under the literal rules; Rejected unless they are n legal
// moves that leave the board empty.
void replay(const Puzzle& p, const std::vector<Move>& moves) {
    Board b = p.board;
    long long given = (long long)moves.size();
    for (size_t i = 0; i < moves.size(); i++) {
        if (i > 0 && is_empty(b))
            throw wa("the board is empty after move " + vtos(i) + ", but n = " + str(p.n) +
                         " moves are required",
                     i);
        std::string why = illegal_reason(b, moves[i]);
        if (!why.empty())
            throw wa("move " + vtos(i + 1) + " `" + move_text(moves[i]) + "` is illegal: " + why, i + 1);
        play(b, moves[i]);
    }
    if (!is_empty(b)) {
        if (given < p.n) throw pe(str(given) + " moves given, n = " + str(p.n) + " required");
        throw wa("after " + str(given) + " moves the board still holds " + vtos(block_count(b)) +
                 " blocks");
    }
    if (given < p.n)
        throw wa("the board is empty after move " + str(given) + ", but n = " + str(p.n) +
                     " moves are required",
                 (size_t)given);
}

// Judges the contestant's output against the answer file's moves.
void judge(const Puzzle& p, const Answer& reference, const std::string& output) {
    Answer written = parse_answer(output, p.n);
    if (written.minus_one) {
        if (!reference.minus_one)
            throw wa("answer is -1 but a solution exists (it starts with `" +
                     move_text(reference.moves[0]) + "`)");
        return;
    }
    replay(p, written.moves);
    if (reference.minus_one) {
        std::string moves;
        for (size_t i = 0; i < written.moves.size(); i++)
            moves += (i ? ", " : "") + move_text(written.moves[i]);
        throw JudgeError{"the moves `" + moves + "` legally clear a board the answer file calls impossible"};
    }
    if (ACCEPT_ANY) return;
    for (size_t i = 0; i < written.moves.size() && i < reference.moves.size(); i++) {
        const Move& a = written.moves[i];
        const Move& b = reference.moves[i];
        if (a.x != b.x || a.y != b.y || a.g != b.g)
            throw wa("the moves clear the board but are not the smallest solution: move " + vtos(i + 1) +
                     " is `" + move_text(a) + "`, the smallest solution has `" + move_text(b) + "`",
                     i + 1);
    }
}

// The 1-based line of the k-th non-blank line of `text` (the k-th move), or 0.
size_t line_of_move(const std::string& text, size_t k) {
    size_t start = 0, seen = 0;
    for (size_t line = 1; start <= text.size() && k > 0; line++) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        if (!tokens(text.substr(start, end - start)).empty() && ++seen == k) return line;
        start = end + 1;
    }
    return 0;
}

// The whole file, byte for byte, without a leading UTF-8 byte order mark.
std::string read_all(InStream& in) {
    std::string s;
    while (!in.eof()) s += in.readChar();
    if (s.compare(0, 3, "\xEF\xBB\xBF") == 0) s.erase(0, 3);
    return s;
}

}  // namespace

int main(int argc, char* argv[]) {
    setName("Mayan puzzle (NOIP 2011): replays the moves, literal rules");
    registerTestlibCmd(argc, argv);
    std::string input = read_all(inf), answer = read_all(ans), output = read_all(ouf);
    try {
        Puzzle p = parse_puzzle(input);
        Answer reference;
        try {
            reference = parse_answer(answer, p.n);
            if (!reference.minus_one) replay(p, reference.moves);
        } catch (const Rejected& r) {
            throw JudgeError{"stored answer: " + r.message};
        }
        judge(p, reference, output);
    } catch (const JudgeError& e) {
        quit(_fail, "judge error: " + e.message);
    } catch (const Rejected& r) {
        size_t line = line_of_move(output, r.move);
        quit(r.verdict, line ? "line " + vtos(line) + ": " + r.message : r.message);
    }
    quit(_ok, "correct");
}
