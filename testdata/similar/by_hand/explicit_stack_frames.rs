use std::io::BufRead;

const COLS: usize = 5;
const ROWS: usize = 7;

type Grid = [[i16; ROWS]; COLS];

macro_rules! each_cell {
    ($x:ident, $y:ident, $body:block) => {
        for $x in 0..COLS {
            for $y in 0..ROWS $body
        }
    };
}

struct Frame {
    grid: Grid,
    tried: u32,
    step: (usize, usize, i64),
}

fn drop_blocks(g: &mut Grid) {
    for column in g.iter_mut() {
        let mut top = 0;
        for row in 0..ROWS {
            match column[row] {
                0 => {}
                val => {
                    column[row] = 0;
                    column[top] = val;
                    top += 1;
                }
            }
        }
    }
}

fn pop_lines(g: &mut Grid) -> bool {
    let mut hit = [[false; ROWS]; COLS];
    let mut found = false;
    each_cell!(x, y, {
        let val = g[x][y];
        if val == 0 {
            continue;
        }
        if y + 2 < ROWS && g[x][y + 1] == val && g[x][y + 2] == val {
            for d in 0..3 {
                hit[x][y + d] = true;
            }
            found = true;
        }
        if x + 2 < COLS && g[x + 1][y] == val && g[x + 2][y] == val {
            for d in 0..3 {
                hit[x + d][y] = true;
            }
            found = true;
        }
    });
    each_cell!(x, y, {
        if hit[x][y] {
            g[x][y] = 0;
        }
    });
    found
}

fn stabilise(g: &mut Grid) {
    drop_blocks(g);
    while pop_lines(g) {
        drop_blocks(g);
    }
}

fn report(frames: &[Frame]) {
    for f in frames {
        let (x, y, dir) = f.step;
        println!("{} {} {}", x, y, dir);
    }
}

fn main() {
    let stdin = std::io::stdin();
    let mut values: Vec<i64> = Vec::new();
    for line in stdin.lock().lines() {
        let line = line.unwrap();
        values.extend(line.split_whitespace().map(|t| t.parse::<i64>().unwrap()));
    }
    let mut pos = 1;
    let limit = values[0] as usize;
    let mut first: Grid = [[0; ROWS]; COLS];
    for x in 0..COLS {
        let mut y = 0;
        while values[pos] != 0 {
            first[x][y] = values[pos] as i16;
            y += 1;
            pos += 1;
        }
        pos += 1;
    }
    let mut frames: Vec<Frame> = vec![Frame {
        grid: first,
        tried: 0,
        step: (0, 0, 0),
    }];
    while !frames.is_empty() {
        let level = frames.len() - 1;
        let top = frames.last_mut().unwrap();
        let grid = top.grid;
        let clear = grid.iter().all(|c| c[0] == 0);
        if clear && level == limit {
            report(&frames[1..]);
            return;
        }
        let mut tally = [0u32; 11];
        grid.iter().flatten().for_each(|&v| tally[v as usize] += 1);
        let dead = tally[1..].iter().any(|&k| k == 1 || k == 2);
        if clear || level == limit || top.tried >= 70 || dead {
            frames.pop();
            continue;
        }
        let code = top.tried as usize;
        top.tried += 1;
        let dir: i64 = match code % 2 {
            0 => 1,
            _ => -1,
        };
        let x = code / 14;
        let y = code % 14 / 2;
        let to = x as i64 + dir;
        if grid[x][y] == 0 || to < 0 || to >= COLS as i64 {
            continue;
        }
        if dir < 0 && grid[to as usize][y] != 0 {
            continue;
        }
        let mut after = grid;
        after[to as usize][y] = grid[x][y];
        after[x][y] = grid[to as usize][y];
        stabilise(&mut after);
        frames.push(Frame {
            grid: after,
            tried: 0,
            step: (x, y, dir),
        });
    }
    println!("-1");
}
