// Mayan puzzle (NOIP 2011 day 1 problem 3): accepted Rust reference (std only,
// `rustc -O`). Literal rules of RULES.md: exactly n moves; a swap of two equal
// colours is a legal move (changes nothing, still counts); a board emptied
// before the n-th move is not a solution. DFS in lexicographic move order
// (x, then y, then g = 1 before -1); the first solution found is the answer.
// Pruning: a colour with 1 or 2 blocks is dead; a left move only into an empty
// cell; a hash set of dead (board, moves left) states.
use std::collections::HashSet;
use std::io::{self, Read, Write};

type Board = [[u8; 7]; 5];

fn gravity(b: &mut Board) {
    for col in b.iter_mut() {
        let mut h = 0;
        for y in 0..7 {
            if col[y] != 0 {
                let c = col[y];
                col[y] = 0;
                col[h] = c;
                h += 1;
            }
        }
    }
}

/// Mark all runs of >= 3 (found by scanning maximal runs) and remove them.
fn remove_runs(b: &mut Board) -> bool {
    let mut mark = [[false; 7]; 5];
    let mut any = false;
    // vertical runs
    for x in 0..5 {
        let mut y = 0;
        while y < 7 {
            let c = b[x][y];
            let mut e = y + 1;
            while e < 7 && b[x][e] == c {
                e += 1;
            }
            if c != 0 && e - y >= 3 {
                for yy in y..e {
                    mark[x][yy] = true;
                }
                any = true;
            }
            y = e;
        }
    }
    // horizontal runs
    for y in 0..7 {
        let mut x = 0;
        while x < 5 {
            let c = b[x][y];
            let mut e = x + 1;
            while e < 5 && b[e][y] == c {
                e += 1;
            }
            if c != 0 && e - x >= 3 {
                for xx in x..e {
                    mark[xx][y] = true;
                }
                any = true;
            }
            x = e;
        }
    }
    if any {
        for x in 0..5 {
            for y in 0..7 {
                if mark[x][y] {
                    b[x][y] = 0;
                }
            }
        }
    }
    any
}

fn settle(b: &mut Board) {
    loop {
        gravity(b);
        if !remove_runs(b) {
            break;
        }
    }
}

fn is_empty(b: &Board) -> bool {
    b.iter().all(|c| c[0] == 0)
}

fn colour_dead(b: &Board) -> bool {
    let mut cnt = [0u32; 11];
    for col in b.iter() {
        for &c in col.iter() {
            if c != 0 {
                cnt[c as usize] += 1;
            }
        }
    }
    cnt.iter().any(|&k| k == 1 || k == 2)
}

fn flat(b: &Board) -> [u8; 35] {
    let mut f = [0u8; 35];
    for x in 0..5 {
        f[x * 7..x * 7 + 7].copy_from_slice(&b[x]);
    }
    f
}

struct Solver {
    n: usize,
    dead: HashSet<([u8; 35], u8)>,
    path: Vec<(usize, usize, i32)>,
}

impl Solver {
    fn dfs(&mut self, b: &Board, k: usize) -> bool {
        if is_empty(b) {
            return k == 0; // an empty board has no legal move
        }
        if k == 0 || colour_dead(b) {
            return false;
        }
        let key = (flat(b), k as u8);
        if self.dead.contains(&key) {
            return false;
        }
        for x in 0..5 {
            for y in 0..7 {
                if b[x][y] == 0 {
                    break;
                }
                if x < 4 {
                    let mut nb = *b;
                    nb[x][y] = b[x + 1][y];
                    nb[x + 1][y] = b[x][y];
                    settle(&mut nb);
                    self.path.push((x, y, 1));
                    if self.dfs(&nb, k - 1) {
                        return true;
                    }
                    self.path.pop();
                }
                if x > 0 && b[x - 1][y] == 0 {
                    let mut nb = *b;
                    nb[x - 1][y] = b[x][y];
                    nb[x][y] = 0;
                    settle(&mut nb);
                    self.path.push((x, y, -1));
                    if self.dfs(&nb, k - 1) {
                        return true;
                    }
                    self.path.pop();
                }
            }
        }
        self.dead.insert(key);
        false
    }
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let t: Vec<i64> = s.split_ascii_whitespace().map(|w| w.parse().unwrap()).collect();
    if t.is_empty() {
        return;
    }
    let n = t[0].max(0) as usize;
    let mut b: Board = [[0; 7]; 5];
    let mut i = 1;
    for x in 0..5 {
        let mut y = 0;
        while t[i] != 0 {
            b[x][y] = t[i] as u8;
            y += 1;
            i += 1;
        }
        i += 1;
    }
    let mut sv = Solver { n, dead: HashSet::new(), path: Vec::new() };
    let mut text = String::new();
    if sv.dfs(&b, sv.n) {
        for &(x, y, g) in &sv.path {
            text.push_str(&format!("{} {} {}\n", x, y, g));
        }
    } else {
        text.push_str("-1\n");
    }
    let _ = io::stdout().write_all(text.as_bytes());
}
