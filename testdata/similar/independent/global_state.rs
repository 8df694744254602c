use std::io::{self, BufRead};

struct State {
    n: usize,
    a: [[i32; 7]; 5],
    saved: Vec<[[i32; 7]; 5]>,
    ans: Vec<(usize, usize, i32)>,
}

impl State {
    fn fall(&mut self) {
        for i in 0..5 {
            let mut k = 0;
            for j in 0..7 {
                if self.a[i][j] != 0 {
                    self.a[i][k] = self.a[i][j];
                    k += 1;
                }
            }
            for j in k..7 {
                self.a[i][j] = 0;
            }
        }
    }

    fn remove(&mut self) -> bool {
        let mut vis = [[false; 7]; 5];
        let mut flag = false;
        for i in 0..5 {
            for j in 0..7 {
                let c = self.a[i][j];
                if c == 0 {
                    continue;
                }
                if i + 2 < 5 && self.a[i + 1][j] == c && self.a[i + 2][j] == c {
                    vis[i][j] = true;
                    vis[i + 1][j] = true;
                    vis[i + 2][j] = true;
                    flag = true;
                }
                if j + 2 < 7 && self.a[i][j + 1] == c && self.a[i][j + 2] == c {
                    vis[i][j] = true;
                    vis[i][j + 1] = true;
                    vis[i][j + 2] = true;
                    flag = true;
                }
            }
        }
        for i in 0..5 {
            for j in 0..7 {
                if vis[i][j] {
                    self.a[i][j] = 0;
                }
            }
        }
        flag
    }

    fn dfs(&mut self, k: usize) -> bool {
        if (0..5).all(|i| self.a[i][0] == 0) {
            return k == self.n;
        }
        if k == self.n {
            return false;
        }
        let mut sum = [0; 11];
        for i in 0..5 {
            for j in 0..7 {
                sum[self.a[i][j] as usize] += 1;
            }
        }
        if (1..11).any(|c| sum[c] == 1 || sum[c] == 2) {
            return false;
        }
        self.saved[k] = self.a;
        for i in 0..5 {
            for j in 0..7 {
                if self.a[i][j] == 0 {
                    break;
                }
                for g in [1i32, -1] {
                    let ni = i as i32 + g;
                    if ni < 0 || ni > 4 || (g == -1 && self.a[ni as usize][j] != 0) {
                        continue;
                    }
                    let ni = ni as usize;
                    let t = self.a[i][j];
                    self.a[i][j] = self.a[ni][j];
                    self.a[ni][j] = t;
                    self.fall();
                    while self.remove() {
                        self.fall();
                    }
                    self.ans.push((i, j, g));
                    if self.dfs(k + 1) {
                        return true;
                    }
                    self.ans.pop();
                    self.a = self.saved[k];
                }
            }
        }
        false
    }
}

fn main() {
    let stdin = io::stdin();
    let nums: Vec<i32> = stdin
        .lock()
        .lines()
        .flat_map(|l| l.unwrap().split_whitespace().map(|w| w.parse().unwrap()).collect::<Vec<i32>>())
        .collect();
    let n = nums[0] as usize;
    let mut st = State { n, a: [[0; 7]; 5], saved: vec![[[0; 7]; 5]; n + 1], ans: Vec::new() };
    let mut p = 1;
    for i in 0..5 {
        let mut j = 0;
        while nums[p] != 0 {
            st.a[i][j] = nums[p];
            j += 1;
            p += 1;
        }
        p += 1;
    }
    if st.dfs(0) {
        for (x, y, g) in &st.ans {
            println!("{} {} {}", x, y, g);
        }
    } else {
        println!("-1");
    }
}
