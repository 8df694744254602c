// Mayan puzzle, the usual outline: fall, clear, prune, depth-first search.
use std::io::Read;

type Board = [[u8; 7]; 5];

fn fall(b: &mut Board) {
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

fn clear(b: &mut Board) -> bool {
    let mut mark = [[false; 7]; 5];
    let mut any = false;
    for x in 0..5 {
        for y in 0..7 {
            let c = b[x][y];
            if c == 0 {
                continue;
            }
            if x + 2 < 5 && b[x + 1][y] == c && b[x + 2][y] == c {
                mark[x][y] = true;
                mark[x + 1][y] = true;
                mark[x + 2][y] = true;
                any = true;
            }
            if y + 2 < 7 && b[x][y + 1] == c && b[x][y + 2] == c {
                mark[x][y] = true;
                mark[x][y + 1] = true;
                mark[x][y + 2] = true;
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

fn settle(b: &mut Board) {
    fall(b);
    while clear(b) {
        fall(b);
    }
}

fn hopeless(b: &Board) -> bool {
    let mut count = [0usize; 11];
    for col in b.iter() {
        for &c in col.iter() {
            count[c as usize] += 1;
        }
    }
    (1..=10).any(|c| count[c] == 1 || count[c] == 2)
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
