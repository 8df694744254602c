//! Random valid boards from a seed: columns are stacks, at most seven high,
//! colours 1..=10, and no run of three. Used by benchmarks, property tests
//! and (later) the `gen` and `stress` commands. Deterministic for a seed.

use crate::puzzle::sim::{Board, HEIGHT, MAX_COLOUR, WIDTH};

/// What boards to make.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Number of blocks (at most 35).
    pub blocks: usize,
    /// Number of distinct colours used (1..=10).
    pub colours: usize,
    /// Every colour gets at least three blocks, so the cheap "stranded colour"
    /// pruning never applies.
    pub min_three_each: bool,
}

/// A seeded source of random valid boards.
pub struct BoardGen {
    rng: fastrand::Rng,
}

impl BoardGen {
    /// A generator for a seed.
    pub fn new(seed: u64) -> BoardGen {
        BoardGen {
            rng: fastrand::Rng::with_seed(seed),
        }
    }

    /// The underlying random source, for callers that pick other things
    /// (such as `n`) from the same seed.
    pub fn rng(&mut self) -> &mut fastrand::Rng {
        &mut self.rng
    }

    /// A random valid board of that shape, or `None` when the shape is
    /// impossible (too many blocks, too few colours for the count) or no
    /// board was found in a bounded number of tries.
    pub fn board(&mut self, shape: Shape) -> Option<Board> {
        let max = WIDTH * HEIGHT;
        if shape.blocks > max || shape.colours == 0 || shape.colours > MAX_COLOUR as usize {
            return None;
        }
        if shape.min_three_each && shape.blocks < 3 * shape.colours {
            return None;
        }
        for _ in 0..1000 {
            if let Some(b) = self.try_board(shape) {
                return Some(b);
            }
        }
        None
    }

    /// A random valid board with exactly `counts[i]` blocks of its `i`-th
    /// colour (the colours themselves drawn at random from 1..=10), such as
    /// five colours of six or seven blocks each. `None` when the counts cannot
    /// fit (more than 35 blocks or 10 colours) or no board was found in a
    /// bounded number of tries.
    pub fn board_with_counts(&mut self, counts: &[usize]) -> Option<Board> {
        let blocks: usize = counts.iter().sum();
        if blocks > WIDTH * HEIGHT || counts.len() > MAX_COLOUR as usize {
            return None;
        }
        for _ in 0..1000 {
            let heights = self.heights(blocks);
            let mut palette: Vec<u8> = (1..=MAX_COLOUR).collect();
            self.rng.shuffle(&mut palette);
            let mut bag: Vec<u8> = Vec::with_capacity(blocks);
            for (&c, &k) in palette.iter().zip(counts) {
                bag.extend(std::iter::repeat_n(c, k));
            }
            self.rng.shuffle(&mut bag);
            if let Some(b) = fill(heights, bag) {
                return Some(b);
            }
        }
        None
    }

    /// Column heights for `blocks` blocks: dropped one by one into non-full
    /// columns.
    fn heights(&mut self, blocks: usize) -> [usize; WIDTH] {
        let mut heights = [0usize; WIDTH];
        for _ in 0..blocks {
            let open: Vec<usize> = (0..WIDTH).filter(|&x| heights[x] < HEIGHT).collect();
            heights[open[self.rng.usize(..open.len())]] += 1;
        }
        heights
    }

    fn try_board(&mut self, shape: Shape) -> Option<Board> {
        let heights = self.heights(shape.blocks);
        // Which colours (a random subset of 1..=10), and how many of each.
        let mut palette: Vec<u8> = (1..=MAX_COLOUR).collect();
        self.rng.shuffle(&mut palette);
        palette.truncate(shape.colours);
        let mut bag: Vec<u8> = Vec::with_capacity(shape.blocks);
        if shape.min_three_each {
            for &c in &palette {
                bag.extend([c; 3]);
            }
        }
        while bag.len() < shape.blocks {
            bag.push(palette[self.rng.usize(..palette.len())]);
        }
        self.rng.shuffle(&mut bag);
        fill(heights, bag)
    }
}

/// Fills the cells bottom-up, column by column, from a shuffled bag of
/// colours, never completing a run; `None` when the bag leaves no choice.
fn fill(heights: [usize; WIDTH], mut bag: Vec<u8>) -> Option<Board> {
    let mut b = Board::EMPTY;
    for x in 0..WIDTH {
        for y in 0..heights[x] {
            let pick = (0..bag.len()).find(|&i| {
                let c = bag[i];
                let vertical = y >= 2 && b.get(x, y - 1) == c && b.get(x, y - 2) == c;
                let horizontal = x >= 2 && b.get(x - 1, y) == c && b.get(x - 2, y) == c;
                !vertical && !horizontal
            })?;
            b.set(x, y, bag.swap_remove(pick));
        }
    }
    Some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_valid_and_have_the_asked_shape() {
        let mut g = BoardGen::new(7);
        for blocks in [0, 5, 20, 35] {
            let shape = Shape {
                blocks,
                colours: 3,
                min_three_each: blocks >= 9,
            };
            let b = g.board(shape).expect("board");
            assert_eq!(b.block_count() as usize, blocks);
            assert!(!b.has_run() && !b.has_floating());
            if shape.min_three_each {
                assert!(!b.has_stranded_colour());
            }
        }
    }

    #[test]
    fn same_seed_same_boards() {
        let shape = Shape {
            blocks: 20,
            colours: 5,
            min_three_each: true,
        };
        let a: Vec<_> = (0..5).map(|_| BoardGen::new(3).board(shape)).collect();
        let b: Vec<_> = (0..5).map(|_| BoardGen::new(3).board(shape)).collect();
        assert_eq!(a, b);
    }
}
