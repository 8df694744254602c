// Mayan puzzle: the board is a Copy array, each move makes a new one.
use std::io::{self, Read};

type Board = [[u8; 7]; 5];

fn fall(b: &mut Board) {
    for x in 0..5 {
        let mut k = 0;
        for y in 0..7 {
            if b[x][y] != 0 {
                b[x][k] = b[x][y];
                k += 1;
            }
        }
        for y in k..7 {
            b[x][y] = 0;
        }
    }
}

fn clear(b: &mut Board) -> bool {
    let mut gone = [[false; 7]; 5];
    let mut any = false;
    for x in 0..5 {
        for y in 0..7 {
            let c = b[x][y];
            if c == 0 {
                continue;
            }
            if x + 2 < 5 && b[x + 1][y] == c && b[x + 2][y] == c {
                gone[x][y] = true;
                gone[x + 1][y] = true;
                gone[x + 2][y] = true;
                any = true;
            }
            if y + 2 < 7 && b[x][y + 1] == c && b[x][y + 2] == c {
                gone[x][y] = true;
                gone[x][y + 1] = true;
                gone[x][y + 2] = true;
                any = true;
            }
        }
    }
    for x in 0..5 {
        for y in 0..7 {
            if gone[x][y] {
                b[x][y] = 0;
            }
        }
    }
    any
}

fn dead(b: &Board) -> bool {
    let mut cnt = [0u32; 11];
    for col in b.iter() {
        for &c in col.iter() {
            cnt[c as usize] += 1;
        }
    }
    (1..11).any(|c| cnt[c] == 1 || cnt[c] == 2)
}

fn dfs(b: Board, depth: usize, n: usize, path: &mut Vec<(usize, usize, i32)>) -> bool {
    if (0..5).all(|x| b[x][0] == 0) {
        return depth == n;
    }
    if depth == n || dead(&b) {
        return false;
    }
    for x in 0..5 {
        for y in 0..7 {
            if b[x][y] == 0 {
                break;
            }
            if x + 1 < 5 {
                let mut nb = b;
                let t = nb[x][y];
                nb[x][y] = nb[x + 1][y];
                nb[x + 1][y] = t;
                fall(&mut nb);
                while clear(&mut nb) {
                    fall(&mut nb);
                }
                path.push((x, y, 1));
                if dfs(nb, depth + 1, n, path) {
                    return true;
                }
                path.pop();
            }
            if x > 0 && b[x - 1][y] == 0 {
                let mut nb = b;
                nb[x - 1][y] = nb[x][y];
                nb[x][y] = 0;
                fall(&mut nb);
                while clear(&mut nb) {
                    fall(&mut nb);
                }
                path.push((x, y, -1));
                if dfs(nb, depth + 1, n, path) {
                    return true;
                }
                path.pop();
            }
        }
    }
    false
}

fn main() {
    let mut s = String::new();
    io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_whitespace().map(|t| t.parse::<i64>().unwrap());
    let n = it.next().unwrap() as usize;
    let mut b: Board = [[0; 7]; 5];
    for x in 0..5 {
        let mut y = 0;
        loop {
            let v = it.next().unwrap();
            if v == 0 {
                break;
            }
            b[x][y] = v as u8;
            y += 1;
        }
    }
    let mut path = Vec::new();
    if dfs(b, 0, n, &mut path) {
        for (x, y, g) in path {
            println!("{} {} {}", x, y, g);
        }
    } else {
        println!("-1");
    }
}
