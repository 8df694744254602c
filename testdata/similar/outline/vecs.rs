// Mayan puzzle, the usual outline: fall, clear, prune, depth-first search.
use std::io::Read;

type Board = [[u8; 7]; 5];

fn fall(b: &mut Board) {
    for col in b.iter_mut() {
        let blocks: Vec<u8> = col.iter().copied().filter(|&c| c != 0).collect();
        *col = [0; 7];
        col[..blocks.len()].copy_from_slice(&blocks);
    }
}

/// Marks the cells of every run of three or more equal colours along `line`.
fn mark_runs(b: &Board, line: &[(usize, usize)], gone: &mut [[bool; 7]; 5]) {
    let mut i = 0;
    while i < line.len() {
        let (x, y) = line[i];
        let colour = b[x][y];
        let len = line[i..]
            .iter()
            .take_while(|&&(x, y)| b[x][y] == colour)
            .count();
        if colour != 0 && len >= 3 {
            for &(x, y) in &line[i..i + len] {
                gone[x][y] = true;
            }
        }
        i += len;
    }
}

fn clear(b: &mut Board) -> bool {
    let mut gone = [[false; 7]; 5];
    for x in 0..5 {
        let column: Vec<(usize, usize)> = (0..7).map(|y| (x, y)).collect();
        mark_runs(b, &column, &mut gone);
    }
    for y in 0..7 {
        let row: Vec<(usize, usize)> = (0..5).map(|x| (x, y)).collect();
        mark_runs(b, &row, &mut gone);
    }
    let mut cleared = false;
    for (col, marks) in b.iter_mut().zip(gone.iter()) {
        for (cell, &m) in col.iter_mut().zip(marks.iter()) {
            if m {
                *cell = 0;
                cleared = true;
            }
        }
    }
    cleared
}

fn settle(b: &mut Board) {
    fall(b);
    while clear(b) {
        fall(b);
    }
}

fn hopeless(b: &Board) -> bool {
    (1..=10u8).any(|colour| {
        let left = b.iter().flatten().filter(|&&c| c == colour).count();
        left == 1 || left == 2
    })
}

fn search(b: &Board, step: usize, n: usize, moves: &mut Vec<(usize, usize, i32)>) -> bool {
    if step == n {
        return b.iter().all(|col| col[0] == 0);
    }
    if hopeless(b) {
        return false;
    }
    for x in 0..5 {
        for y in 0..7 {
            if b[x][y] == 0 {
                break;
            }
            if x < 4 && b[x + 1][y] != b[x][y] {
                let mut next = *b;
                let t = next[x][y];
                next[x][y] = next[x + 1][y];
                next[x + 1][y] = t;
                settle(&mut next);
                moves.push((x, y, 1));
                if search(&next, step + 1, n, moves) {
                    return true;
                }
                moves.pop();
            }
            if x > 0 && b[x - 1][y] == 0 {
                let mut next = *b;
                next[x - 1][y] = next[x][y];
                next[x][y] = 0;
                settle(&mut next);
                moves.push((x, y, -1));
                if search(&next, step + 1, n, moves) {
                    return true;
                }
                moves.pop();
            }
        }
    }
    false
}

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut nums = input.split_whitespace().map(|t| t.parse::<u8>().unwrap());
    let n = nums.next().unwrap() as usize;
    let mut b: Board = [[0; 7]; 5];
    for x in 0..5 {
        let mut y = 0;
        loop {
            let c = nums.next().unwrap();
            if c == 0 {
                break;
            }
            b[x][y] = c;
            y += 1;
        }
    }
    let mut moves = Vec::new();
    if search(&b, 0, n, &mut moves) {
        for (x, y, d) in moves {
            println!("{} {} {}", x, y, d);
        }
    } else {
        println!("-1");
    }
}
