//! Greedy String Tiling (Wise 1993; JPlag's exact measure): the matches of
//! two token sequences, longest first, no token in two tiles, none shorter
//! than [`K`](super::fingerprint::K).
//!
//! Matches are found as Running-Karp-Rabin GST finds them, but without its
//! hash collisions: the k-gram keys of the two programs (exact, see
//! `fingerprint`), sorted, are merged to give every pair of equal k-grams;
//! those that start a match are extended as far as the tokens agree. A
//! max-heap then gives the longest match; a match that overlaps a tile
//! already laid is cut into its parts still free, which go back on the heap.
//! So every tile is the longest match among free tokens when it is laid,
//! which is what GST's rounds compute.

use super::fingerprint::K;
use std::collections::BinaryHeap;

/// One side of a comparison: a program's tokens (as bytes), which of them
/// may be matched, and its k-gram keys sorted with their positions.
pub struct Side<'a> {
    /// The tokens.
    pub toks: &'a [u8],
    /// Whether each token may be matched (template code may not).
    pub free: &'a [bool],
    /// `(key, start)` of every k-gram that may be matched, sorted.
    pub sorted: &'a [(u64, u32)],
}

/// A tile: `len` tokens from `a` in the first program and `b` in the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tile {
    /// Its length, in tokens.
    pub len: u32,
    /// Where it starts in the first program.
    pub a: u32,
    /// Where it starts in the second.
    pub b: u32,
}

/// Seeds with more matches than this per key are left out (a run of one
/// token repeated hundreds of times would otherwise cost a square).
const MAX_BUCKET: usize = 256;

/// The tiles of `x` and `y`, in the order laid (longest first).
pub fn tiles(x: &Side, y: &Side) -> Vec<Tile> {
    let mut heap = BinaryHeap::new();
    for_each_seed(x.sorted, y.sorted, |i, j| {
        let starts = i == 0 || j == 0 || x.toks[i - 1] != y.toks[j - 1] || !x.free[i - 1] || !y.free[j - 1];
        if starts {
            let len = extend(x, y, i, j);
            if len >= K {
                heap.push(Tile {
                    len: len as u32,
                    a: i as u32,
                    b: j as u32,
                });
            }
        }
    });
    let mut used_a = vec![false; x.toks.len()];
    let mut used_b = vec![false; y.toks.len()];
    let mut laid = Vec::new();
    while let Some(t) = heap.pop() {
        let (a, b, len) = (t.a as usize, t.b as usize, t.len as usize);
        let clear = (0..len).all(|d| !used_a[a + d] && !used_b[b + d]);
        if clear {
            for d in 0..len {
                used_a[a + d] = true;
                used_b[b + d] = true;
            }
            laid.push(t);
            continue;
        }
        // The parts still free, back on the heap.
        let mut d = 0;
        while d < len {
            let start = d;
            while d < len && !used_a[a + d] && !used_b[b + d] {
                d += 1;
            }
            if d - start >= K {
                heap.push(Tile {
                    len: (d - start) as u32,
                    a: (a + start) as u32,
                    b: (b + start) as u32,
                });
            }
            d += 1;
        }
    }
    laid
}

fn extend(x: &Side, y: &Side, i: usize, j: usize) -> usize {
    let mut len = 0;
    while i + len < x.toks.len()
        && j + len < y.toks.len()
        && x.toks[i + len] == y.toks[j + len]
        && x.free[i + len]
        && y.free[j + len]
    {
        len += 1;
    }
    len
}

/// Calls `f(i, j)` for every pair of equal keys of the two sorted lists.
fn for_each_seed(a: &[(u64, u32)], b: &[(u64, u32)], mut f: impl FnMut(usize, usize)) {
    let (mut p, mut q) = (0, 0);
    while p < a.len() && q < b.len() {
        let key = a[p].0;
        match key.cmp(&b[q].0) {
            std::cmp::Ordering::Less => p += 1,
            std::cmp::Ordering::Greater => q += 1,
            std::cmp::Ordering::Equal => {
                let pe = p + a[p..].iter().take_while(|e| e.0 == key).count();
                let qe = q + b[q..].iter().take_while(|e| e.0 == key).count();
                if (pe - p) * (qe - q) <= MAX_BUCKET * MAX_BUCKET / 4 {
                    for &(_, i) in &a[p..pe] {
                        for &(_, j) in &b[q..qe] {
                            f(i as usize, j as usize);
                        }
                    }
                }
                p = pe;
                q = qe;
            }
        }
    }
}

/// The sorted `(key, start)` list of a program's k-grams, those touching a
/// token that is not free left out.
pub fn sorted_keys(keys: &[u64], free: &[bool]) -> Vec<(u64, u32)> {
    let mut out: Vec<(u64, u32)> = keys
        .iter()
        .enumerate()
        .filter(|&(i, _)| free[i..i + K].iter().all(|&f| f))
        .map(|(i, &k)| (k, i as u32))
        .collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::fingerprint::kgrams;
    use crate::similarity::tokens::{Tok, Token};

    fn run(a: &[u8], b: &[u8]) -> Vec<Tile> {
        let conv = |s: &[u8]| -> Vec<Token> {
            s.iter()
                .map(|&t| Token {
                    tok: unsafe_tok(t),
                    line: 1,
                    name: 0,
                })
                .collect()
        };
        let (ta, tb) = (conv(a), conv(b));
        let (fa, fb) = (vec![true; a.len()], vec![true; b.len()]);
        let (sa, sb) = (sorted_keys(&kgrams(&ta), &fa), sorted_keys(&kgrams(&tb), &fb));
        tiles(
            &Side {
                toks: a,
                free: &fa,
                sorted: &sa,
            },
            &Side {
                toks: b,
                free: &fb,
                sorted: &sb,
            },
        )
    }

    fn unsafe_tok(t: u8) -> Tok {
        [
            Tok::Id,
            Tok::Num,
            Tok::Str,
            Tok::Bool,
            Tok::Func,
            Tok::Loop,
            Tok::If,
            Tok::Call,
        ][t as usize % 8]
    }

    fn seq(n: usize, seed: usize) -> Vec<u8> {
        (0..n)
            .map(|i| ((i * 7 + seed) * 2654435761 % 97 % 8) as u8)
            .collect()
    }

    #[test]
    fn swapped_halves_are_two_tiles_covering_everything() {
        let x = seq(60, 1);
        let mut y = x[30..].to_vec();
        y.extend(&x[..30]);
        let t = run(&x, &y);
        assert_eq!(t.iter().map(|t| t.len).sum::<u32>(), 60);
    }

    #[test]
    fn the_longest_match_is_laid_first_and_short_ones_not_at_all() {
        let x = seq(40, 3);
        let mut y = x[..K - 1].to_vec();
        y.extend(seq(5, 50));
        y.extend(&x);
        let t = run(&x, &y);
        assert_eq!(t[0].len, 40);
        assert_eq!(t.len(), 1);
    }
}
