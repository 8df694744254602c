use std::io::BufRead;

type Grid = [[u32; 7]; 5];

macro_rules! cells {
    ($n:expr, $f:expr) => {
        (0..$n).map($f).collect::<Vec<(usize, usize)>>()
    };
}

fn settle_column(col: &mut [u32; 7]) {
    let kept: Vec<u32> = col.iter().filter(|&&v| v > 0).cloned().collect();
    *col = [0; 7];
    for (slot, v) in col.iter_mut().zip(kept) {
        *slot = v;
    }
}

fn flag_runs(g: &Grid, cells: &[(usize, usize)], kill: &mut [[bool; 7]; 5]) {
    let mut at = 0;
    while at < cells.len() {
        let (cx, cy) = cells[at];
        let want = g[cx][cy];
        let same = cells[at..]
            .iter()
            .take_while(|&&(cx, cy)| g[cx][cy] == want)
            .count();
        match (want, same) {
            (0, _) | (_, 0..=2) => {}
            _ => cells[at..at + same].iter().for_each(|&(cx, cy)| kill[cx][cy] = true),
        }
        at += same;
    }
}

fn pop(g: &mut Grid) -> bool {
    let mut kill = [[false; 7]; 5];
    for row in 0..7 {
        flag_runs(g, &cells!(5, |col| (col, row)), &mut kill);
    }
    for col in 0..5 {
        flag_runs(g, &cells!(7, |row| (col, row)), &mut kill);
    }
    let mut popped = false;
    for (column, flags) in g.iter_mut().zip(kill.iter()) {
        for (v, &k) in column.iter_mut().zip(flags.iter()) {
            if k {
                popped = true;
                *v = 0;
            }
        }
    }
    popped
}

fn doomed(g: &Grid) -> bool {
    (1..=10u32).any(|colour| {
        let n = g.iter().flatten().filter(|&&v| v == colour).count();
        n > 0 && n < 3
    })
}

fn attempt(mut next: Grid, depth: usize, goal: usize, path: &mut Vec<[i32; 3]>, mv: [i32; 3]) -> bool {
    next.iter_mut().for_each(settle_column);
    while pop(&mut next) {
        next.iter_mut().for_each(settle_column);
    }
    path.push(mv);
    let ok = dfs(&next, depth + 1, goal, path);
    if !ok {
        path.pop();
    }
    ok
}

fn dfs(g: &Grid, depth: usize, goal: usize, path: &mut Vec<[i32; 3]>) -> bool {
    if depth == goal {
        return g.iter().all(|column| column[0] == 0);
    }
    if doomed(g) {
        return false;
    }
    for x in 0..5 {
        for y in 0..7 {
            let here = g[x][y];
            if here == 0 {
                break;
            }
            if x < 4 && g[x + 1][y] != here {
                let mut next = *g;
                next[x][y] = g[x + 1][y];
                next[x + 1][y] = here;
                if attempt(next, depth, goal, path, [x as i32, y as i32, 1]) {
                    return true;
                }
            }
            if x > 0 && g[x - 1][y] == 0 {
                let mut next = *g;
                next[x][y] = 0;
                next[x - 1][y] = here;
                if attempt(next, depth, goal, path, [x as i32, y as i32, -1]) {
                    return true;
                }
            }
        }
    }
    false
}

fn main() {
    let mut words: Vec<u32> = Vec::new();
    let stdin = std::io::stdin();
    let mut line = String::new();
    while stdin.lock().read_line(&mut line).unwrap() > 0 {
        words.extend(line.split_whitespace().map(|w| w.parse::<u32>().unwrap()));
        line.clear();
    }
    let goal = words[0] as usize;
    let mut g: Grid = [[0; 7]; 5];
    let mut k = 1;
    for column in g.iter_mut() {
        let mut y = 0;
        while words[k] != 0 {
            column[y] = words[k];
            k += 1;
            y += 1;
        }
        k += 1;
    }
    let mut path = Vec::new();
    match dfs(&g, 0, goal, &mut path) {
        true => path.iter().for_each(|m| println!("{} {} {}", m[0], m[1], m[2])),
        false => println!("-1"),
    }
}
