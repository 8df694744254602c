//! Mayan puzzle: a Solver keeps one board per depth and the moves so far.
use std::io::Read;

struct Solver {
    n: usize,
    boards: Vec<Vec<Vec<i32>>>,
    moves: Vec<[i32; 3]>,
}

impl Solver {
    fn new(n: usize, start: Vec<Vec<i32>>) -> Self {
        let mut boards = vec![vec![vec![0; 7]; 5]; n + 1];
        boards[0] = start;
        Solver { n, boards, moves: Vec::new() }
    }

    fn gravity(b: &mut Vec<Vec<i32>>) {
        for col in b.iter_mut() {
            let kept: Vec<i32> = col.iter().copied().filter(|&c| c != 0).collect();
            for (i, cell) in col.iter_mut().enumerate() {
                *cell = if i < kept.len() { kept[i] } else { 0 };
            }
        }
    }

    fn eliminate(b: &mut Vec<Vec<i32>>) -> bool {
        let mut mark = vec![vec![false; 7]; 5];
        let mut hit = false;
        for x in 0..5 {
            for y in 0..7 {
                let c = b[x][y];
                if c == 0 {
                    continue;
                }
                if x < 3 && b[x + 1][y] == c && b[x + 2][y] == c {
                    for k in 0..3 {
                        mark[x + k][y] = true;
                    }
                    hit = true;
                }
                if y < 5 && b[x][y + 1] == c && b[x][y + 2] == c {
                    for k in 0..3 {
                        mark[x][y + k] = true;
                    }
                    hit = true;
                }
            }
        }
        for x in 0..5 {
            for y in 0..7 {
                if mark[x][y] {
                    b[x][y] = 0;
                }
            }
        }
        hit
    }

    fn hopeless(b: &[Vec<i32>]) -> bool {
        let mut count = [0; 11];
        for col in b {
            for &c in col {
                count[c as usize] += 1;
            }
        }
        count[1..].iter().any(|&k| k == 1 || k == 2)
    }

    fn search(&mut self, d: usize) -> bool {
        if self.boards[d].iter().all(|col| col[0] == 0) {
            return d == self.n;
        }
        if d == self.n || Self::hopeless(&self.boards[d]) {
            return false;
        }
        for x in 0..5 {
            for y in 0..7 {
                if self.boards[d][x][y] == 0 {
                    break;
                }
                for g in [1i32, -1] {
                    let nx = x as i32 + g;
                    if !(0..5).contains(&nx) {
                        continue;
                    }
                    let nx = nx as usize;
                    if g == -1 && self.boards[d][nx][y] != 0 {
                        continue;
                    }
                    let mut next = self.boards[d].clone();
                    let t = next[x][y];
                    next[x][y] = next[nx][y];
                    next[nx][y] = t;
                    loop {
                        Self::gravity(&mut next);
                        if !Self::eliminate(&mut next) {
                            break;
                        }
                    }
                    self.boards[d + 1] = next;
                    self.moves.push([x as i32, y as i32, g]);
                    if self.search(d + 1) {
                        return true;
                    }
                    self.moves.pop();
                }
            }
        }
        false
    }
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let nums: Vec<i32> = input.split_whitespace().map(|w| w.parse().unwrap()).collect();
    let n = nums[0] as usize;
    let mut start = vec![vec![0; 7]; 5];
    let mut p = 1;
    for x in 0..5 {
        let mut y = 0;
        while nums[p] != 0 {
            start[x][y] = nums[p];
            y += 1;
            p += 1;
        }
        p += 1;
    }
    let mut solver = Solver::new(n, start);
    if solver.search(0) {
        for m in &solver.moves {
            println!("{} {} {}", m[0], m[1], m[2]);
        }
    } else {
        println!("-1");
    }
}
