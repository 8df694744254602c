// Mayan puzzle: columns as Vec<u8> (no padding), recursion returning the path.
use std::collections::HashMap;
use std::io::BufRead;

fn collapse(mut cols: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    loop {
        for c in cols.iter_mut() {
            c.retain(|&v| v != 0);
        }
        let at = |cols: &Vec<Vec<u8>>, x: usize, y: usize| cols[x].get(y).copied().unwrap_or(0);
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for y in 0..7 {
            let mut x = 0;
            while x < 5 {
                let v = at(&cols, x, y);
                let mut end = x + 1;
                while end < 5 && v != 0 && at(&cols, end, y) == v {
                    end += 1;
                }
                if v != 0 && end - x >= 3 {
                    hits.extend((x..end).map(|k| (k, y)));
                }
                x = end;
            }
        }
        for x in 0..5 {
            let col = &cols[x];
            let mut y = 0;
            while y < col.len() {
                let mut end = y + 1;
                while end < col.len() && col[end] == col[y] {
                    end += 1;
                }
                if end - y >= 3 {
                    hits.extend((y..end).map(|k| (x, k)));
                }
                y = end;
            }
        }
        if hits.is_empty() {
            return cols;
        }
        for (x, y) in hits {
            cols[x][y] = 0;
        }
    }
}

fn no_hope(cols: &[Vec<u8>]) -> bool {
    let mut tally: HashMap<u8, usize> = HashMap::new();
    for v in cols.iter().flatten() {
        *tally.entry(*v).or_insert(0) += 1;
    }
    tally.values().any(|&k| k < 3)
}

fn solve(cols: Vec<Vec<u8>>, left: usize) -> Option<Vec<(usize, usize, i32)>> {
    if cols.iter().all(|c| c.is_empty()) {
        return if left == 0 { Some(vec![]) } else { None };
    }
    if left == 0 || no_hope(&cols) {
        return None;
    }
    for x in 0..5 {
        for y in 0..cols[x].len() {
            for dir in [1i32, -1] {
                let to = x as i32 + dir;
                if to < 0 || to > 4 {
                    continue;
                }
                let to = to as usize;
                if dir == -1 && cols[to].len() > y {
                    continue;
                }
                let mut next = cols.clone();
                while next[to].len() <= y {
                    next[to].push(0);
                }
                let moved = next[x][y];
                next[x][y] = next[to][y];
                next[to][y] = moved;
                if let Some(mut rest) = solve(collapse(next), left - 1) {
                    rest.insert(0, (x, y, dir));
                    return Some(rest);
                }
            }
        }
    }
    None
}

fn main() {
    let nums: Vec<u8> = std::io::stdin()
        .lock()
        .lines()
        .flat_map(|l| l.unwrap().split_whitespace().map(|t| t.parse().unwrap()).collect::<Vec<u8>>())
        .collect();
    let n = nums[0] as usize;
    let mut cols = Vec::new();
    let mut rest = nums[1..].split(|&v| v == 0);
    for _ in 0..5 {
        cols.push(rest.next().unwrap_or(&[]).to_vec());
    }
    match solve(cols, n) {
        Some(path) => path.iter().for_each(|(x, y, g)| println!("{x} {y} {g}")),
        None => println!("-1"),
    }
}
