// Mayan puzzle: iterative deepening is not needed (exactly n moves), so one
// depth-first search with an explicit stack over fixed arrays.
use std::io::Read;

type Board = [[u8; 7]; 5];

fn gravity(b: &mut Board) {
    for col in b.iter_mut() {
        let mut w = 0;
        for r in 0..7 {
            if col[r] != 0 {
                let v = col[r];
                col[r] = 0;
                col[w] = v;
                w += 1;
            }
        }
    }
}

fn eliminate(b: &mut Board) -> bool {
    let mut mark = [[false; 7]; 5];
    let mut any = false;
    for x in 0..5 {
        for y in 0..7 {
            let v = b[x][y];
            if v == 0 {
                continue;
            }
            if x + 2 < 5 && b[x + 1][y] == v && b[x + 2][y] == v {
                for k in 0..3 {
                    mark[x + k][y] = true;
                }
                any = true;
            }
            if y + 2 < 7 && b[x][y + 1] == v && b[x][y + 2] == v {
                for k in 0..3 {
                    mark[x][y + k] = true;
                }
                any = true;
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
    any
}

fn lost(b: &Board) -> bool {
    let mut n = [0u32; 11];
    b.iter().flatten().for_each(|&v| n[v as usize] += 1);
    n[1..].iter().any(|&c| c == 1 || c == 2)
}

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_whitespace().map(|t| t.parse::<i32>().unwrap());
    let moves = it.next().unwrap() as usize;
    let mut start: Board = [[0; 7]; 5];
    for x in 0..5 {
        let mut y = 0;
        loop {
            let v = it.next().unwrap();
            if v == 0 {
                break;
            }
            start[x][y] = v as u8;
            y += 1;
        }
    }
    // Each entry: board, next candidate (0..70), move that led here.
    let mut stack: Vec<(Board, usize, (usize, usize, i32))> = vec![(start, 0, (0, 0, 0))];
    while let Some(top) = stack.last_mut() {
        let depth = stack.len() - 1;
        let board = top.0;
        let empty = board.iter().all(|c| c[0] == 0);
        if empty && depth == moves {
            for e in &stack[1..] {
                println!("{} {} {}", e.2.0, e.2.1, e.2.2);
            }
            return;
        }
        if empty || depth == moves || top.1 >= 70 || lost(&board) {
            stack.pop();
            continue;
        }
        let cand = top.1;
        top.1 += 1;
        let (x, y, g) = (cand / 14, cand % 14 / 2, if cand % 2 == 0 { 1 } else { -1 });
        let nx = x as i32 + g;
        if board[x][y] == 0 || !(0..5).contains(&nx) {
            continue;
        }
        let nx = nx as usize;
        if g < 0 && board[nx][y] != 0 {
            continue;
        }
        let mut next = board;
        next[x][y] = board[nx][y];
        next[nx][y] = board[x][y];
        loop {
            gravity(&mut next);
            if !eliminate(&mut next) {
                break;
            }
        }
        stack.push((next, 0, (x, y, g)));
    }
    println!("-1");
}
