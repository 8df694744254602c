use std::collections::HashMap;
use std::io::Read;

type Cols = Vec<Vec<u16>>;

fn value_at(cols: &Cols, x: usize, y: usize) -> u16 {
    cols[x].get(y).copied().unwrap_or(0)
}

fn runs_across(cols: &Cols, found: &mut Vec<(usize, usize)>) {
    for y in 0..7 {
        let mut x = 0;
        while x < 5 {
            let v = value_at(cols, x, y);
            let mut stop = x + 1;
            while stop < 5 && v != 0 && value_at(cols, stop, y) == v {
                stop += 1;
            }
            let long_enough = stop - x >= 3;
            if v != 0 && long_enough {
                found.extend((x..stop).map(|k| (k, y)));
            }
            x = stop;
        }
    }
}

fn settle(mut cols: Cols) -> Cols {
    loop {
        for c in cols.iter_mut() {
            c.retain(|&v| v != 0);
        }
        let mut found: Vec<(usize, usize)> = Vec::new();
        runs_across(&cols, &mut found);
        for x in 0..5 {
            let col = &cols[x];
            let mut y = 0;
            while y < col.len() {
                let mut stop = y + 1;
                while stop < col.len() && col[stop] == col[y] {
                    stop += 1;
                }
                if stop - y >= 3 {
                    found.extend((y..stop).map(|k| (x, k)));
                }
                y = stop;
            }
        }
        match found.is_empty() {
            true => return cols,
            false => {
                for (x, y) in found {
                    cols[x][y] = 0;
                }
            }
        }
    }
}

fn hopeless(cols: &[Vec<u16>]) -> bool {
    let mut seen: HashMap<u16, usize> = HashMap::new();
    for v in cols.iter().flatten() {
        *seen.entry(*v).or_insert(0) += 1;
    }
    seen.values().any(|&k| k < 3)
}

fn search(cols: Cols, remaining: usize) -> Option<Vec<(usize, usize, i64)>> {
    if cols.iter().all(|c| c.is_empty()) {
        return match remaining {
            0 => Some(vec![]),
            _ => None,
        };
    }
    if remaining == 0 || hopeless(&cols) {
        return None;
    }
    for x in 0..5 {
        for y in 0..cols[x].len() {
            for dir in [1i64, -1] {
                let target = x as i64 + dir;
                if target < 0 || target > 4 {
                    continue;
                }
                let target = target as usize;
                if dir == -1 && cols[target].len() > y {
                    continue;
                }
                let mut next = cols.clone();
                while next[target].len() <= y {
                    next[target].push(0);
                }
                next[x].swap(y, 0);
                next[x].swap(0, y);
                let held = next[x][y];
                next[x][y] = next[target][y];
                next[target][y] = held;
                if let Some(mut tail) = search(settle(next), remaining - 1) {
                    tail.insert(0, (x, y, dir));
                    return Some(tail);
                }
            }
        }
    }
    None
}

fn main() {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let nums: Vec<u16> = text.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let n = nums[0] as usize;
    let mut parts = nums[1..].split(|&v| v == 0);
    let mut cols = Vec::new();
    for _ in 0..5 {
        cols.push(parts.next().unwrap_or(&[]).to_vec());
    }
    match search(cols, n) {
        Some(path) => path.iter().for_each(|(x, y, g)| println!("{x} {y} {g}")),
        None => println!("-1"),
    }
}
