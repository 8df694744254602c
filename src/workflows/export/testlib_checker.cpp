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
// from the judge's. Nothing is held whole: a token keeps its first bytes and
// its value, and the output is read no further than the first line that
// cannot be a move (to its end, to count its tokens), so time and memory
// stay linear however long a line or a number is.

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

const size_t HEAD = 84;        // bytes of a token kept for messages
const size_t MAX_DIGITS = 19;  // more significant digits are beyond the 64-bit range

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'; }

// A token read a byte at a time: its line, its first HEAD bytes, its size
// and its value when it is a decimal integer with an optional sign (values
// beyond the 64-bit range saturate, so a huge number is still a number out
// of range), without holding more of it than that.
struct Token {
    size_t line, size, digits;
    std::string head, significant;  // significant: leading zeros dropped, MAX_DIGITS + 1 at most
    bool negative, integer;

    explicit Token(size_t line_ = 0)
        : line(line_), size(0), digits(0), negative(false), integer(true) {}

    void add(char c) {
        if (head.size() < HEAD) head += c;
        size++;
        if (!integer) return;
        if (size == 1 && (c == '-' || c == '+')) {
            negative = c == '-';
        } else if (c < '0' || c > '9') {
            integer = false;
        } else {
            digits++;
            if ((c != '0' || !significant.empty()) && significant.size() <= MAX_DIGITS) significant += c;
        }
    }

    bool value(long long& v) const {
        if (!integer || digits == 0) return false;
        unsigned long long u = 0;
        for (size_t i = 0; i < significant.size() && i < MAX_DIGITS; i++) u = u * 10 + (significant[i] - '0');
        v = significant.size() > MAX_DIGITS || u > (unsigned long long)I64_MAX ? I64_MAX : (long long)u;
        if (negative) v = -v;
        return true;
    }

    bool is(const std::string& text) const { return size == text.size() && head == text; }
};

// The whitespace-separated tokens of a testlib stream, read a byte at a
// time; a leading UTF-8 byte order mark carries no meaning, as a blank.
class Scanner {
public:
    explicit Scanner(InStream& in) : in_(in), line_(1), has_ahead_(false) {
        while (pending_.size() < 3 && !in_.eof()) pending_ += in_.readChar();
        if (pending_ == "\xEF\xBB\xBF") pending_.clear();
    }

    // The next token, or false at the end.
    bool token(Token& tok) {
        if (has_ahead_) {
            tok = ahead_;
            has_ahead_ = false;
            return true;
        }
        char c;
        do {
            if (!get(c)) return false;
        } while (is_space(c));
        tok = Token(line_);
        tok.add(c);
        while (get(c) && !is_space(c)) tok.add(c);
        return true;
    }

    // The next token if it is on `line`, else false (it is read next).
    bool token_on_line(size_t line, Token& tok) {
        if (!token(tok)) return false;
        if (tok.line == line) return true;
        ahead_ = tok;
        has_ahead_ = true;
        return false;
    }

    // How many more tokens the line of `last`, the token just read, has:
    // read to the line's end, counted, never held.
    size_t count_to_line_end(const Token& last) {
        size_t count = 0;
        bool after_blank = true;  // the blank that ended `last`
        char c;
        while (line_ == last.line && get(c)) {
            bool blank = is_space(c);
            count += !blank && after_blank;
            after_blank = blank;
        }
        return count;
    }

private:
    InStream& in_;
    std::string pending_;  // the first bytes, when they are not a byte order mark
    size_t line_;
    bool has_ahead_;
    Token ahead_;

    bool get(char& c) {
        if (!pending_.empty()) {
            c = pending_[0];
            pending_.erase(0, 1);
        } else if (in_.eof()) {
            return false;
        } else {
            c = in_.readChar();
        }
        line_ += c == '\n';
        return true;
    }
};

// A token for a message: at most 20 characters, printable ASCII.
std::string show_token(const Token& tok) {
    std::string s;
    for (size_t i = 0; i < tok.head.size() && i < 20; i++)
        s += (tok.head[i] >= 32 && tok.head[i] < 127) ? tok.head[i] : '?';
    return tok.size > 20 ? s + "..." : s;
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

// The next integer of the input file; JudgeError when there is none.
long long next_int(Scanner& in, size_t& count, const std::string& where) {
    Token tok;
    if (!in.token(tok)) throw JudgeError{"invalid puzzle: input ends " + where};
    count++;
    long long v;
    if (!tok.value(v))
        throw JudgeError{"invalid puzzle: token " + vtos(count) + " `" + show_token(tok) + "` is not an integer"};
    return v;
}

Puzzle parse_puzzle(Scanner& in) {
    size_t count = 0;
    Puzzle p;
    p.n = next_int(in, count, "before n");
    if (p.n < 1 || p.n > MAX_MOVES)
        throw JudgeError{"invalid puzzle: n = " + str(p.n) + " is outside 1..12"};
    p.board.assign(WIDTH, std::vector<int>(HEIGHT, 0));
    for (int x = 0; x < WIDTH; x++) {
        for (int y = 0;; y++) {
            long long c = next_int(in, count, "inside column " + str(x));
            if (c == 0) break;
            if (c < 1 || c > MAX_COLOUR)
                throw JudgeError{"invalid puzzle: colour " + str(c) + " is outside 1..10"};
            if (y == HEIGHT)
                throw JudgeError{"invalid puzzle: column " + str(x) + " holds more than 7 blocks"};
            p.board[x][y] = int(c);
        }
    }
    Token extra;
    if (in.token(extra))
        throw JudgeError{"invalid puzzle: token " + vtos(count + 1) + " `" + show_token(extra) +
                         "` after the last column"};
    std::vector<std::vector<bool> > marked;
    if (marked_cells(p.board, marked))
        throw JudgeError{"invalid puzzle: the starting board holds a run of three"};
    return p;
}

// ---- answers ----------------------------------------------------------------------

// The moves of an output or answer file (at most n) and the line of each;
// `minus_one` for `-1`. Rejected with PE when the text is not in the output
// format.
struct Answer {
    bool minus_one;
    std::vector<Move> moves;
    std::vector<size_t> lines;
};

Rejected pe(const std::string& message) { return Rejected{_pe, message, 0}; }
Rejected wa(const std::string& message, size_t move = 0) { return Rejected{_wa, message, move}; }

// Reading stops at the first line that cannot be a move: a line is read no
// further than its fourth token, but to its end to count its tokens.
Answer parse_answer(Scanner& in, long long n) {
    Answer a;
    a.minus_one = false;
    Token first;
    while (in.token(first)) {
        size_t line = first.line;
        std::vector<Token> toks(1, first);
        Token tok;
        while (toks.size() < 4 && in.token_on_line(line, tok)) toks.push_back(tok);
        std::string at = "line " + vtos(line) + ": ";
        if (a.minus_one) throw pe(at + "`-1` must be the only line");
        if (toks.size() == 1 && first.is("-1")) {
            if (!a.moves.empty()) throw pe(at + "`-1` must be the only line");
            a.minus_one = true;
            continue;
        }
        long long v[3];
        for (size_t i = 0; i < toks.size() && i < 3; i++)
            if (!toks[i].value(v[i]))
                throw pe(at + "token `" + show_token(toks[i]) + "` is not an integer");
        if (toks.size() != 3) {
            size_t found = toks.size() + (toks.size() == 4 ? in.count_to_line_end(toks[3]) : 0);
            throw pe(at + "expected 3 integers `x y g`, found " + vtos(found) + " tokens");
        }
        if ((long long)a.moves.size() == n) throw pe(at + "more than n = " + str(n) + " moves");
        Move m = {v[0], v[1], v[2]};
        a.moves.push_back(m);
        a.lines.push_back(line);
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

// Judges the contestant's answer against the answer file's moves.
void judge(const Puzzle& p, const Answer& reference, const Answer& written) {
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

}  // namespace

int main(int argc, char* argv[]) {
    setName("Mayan puzzle (NOIP 2011): replays the moves, literal rules");
    registerTestlibCmd(argc, argv);
    Scanner input(inf), answer(ans), output(ouf);
    Answer written;
    try {
        Puzzle p = parse_puzzle(input);
        Answer reference;
        try {
            reference = parse_answer(answer, p.n);
            if (!reference.minus_one) replay(p, reference.moves);
        } catch (const Rejected& r) {
            throw JudgeError{"stored answer: " + r.message};
        }
        written = parse_answer(output, p.n);
        judge(p, reference, written);
    } catch (const JudgeError& e) {
        quit(_fail, "judge error: " + e.message);
    } catch (const Rejected& r) {
        size_t line = r.move ? written.lines[r.move - 1] : 0;
        quit(r.verdict, line ? "line " + vtos(line) + ": " + r.message : r.message);
    }
    quit(_ok, "correct");
}
