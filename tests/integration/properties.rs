//! Rules that must hold on every board, and the solver against a plain
//! exhaustive search. The search and its simulator are written here from
//! RULES.md alone, with no pruning and nothing shared with `src/`, so a bug in
//! the packed board or in the solver's pruning shows up as a disagreement.
//! The solver's lower bound is also checked directly along known solutions
//! (puzzles built backwards), on boards far too large for the exhaustive
//! search: an unsound bound fails there before it can hide behind `-1`.

use mayan_judge::puzzle::boards::{BoardGen, Shape};
use mayan_judge::puzzle::generate::construct;
use mayan_judge::puzzle::sim::{Board, Move, Puzzle};
use mayan_judge::puzzle::solver::{Bound, Reading, solve};
use proptest::prelude::*;

// ---- An independent, naive simulator --------------------------------------

type Grid = [[u8; 7]; 5];

fn grid_of(b: &Board) -> Grid {
    let mut g = [[0; 7]; 5];
    for (x, col) in g.iter_mut().enumerate() {
        for (y, cell) in col.iter_mut().enumerate() {
            *cell = b.get(x, y);
        }
    }
    g
}

fn naive_settle(g: &mut Grid) {
    loop {
        for col in g.iter_mut() {
            let blocks: Vec<u8> = col.iter().copied().filter(|&c| c != 0).collect();
            *col = [0; 7];
            col[..blocks.len()].copy_from_slice(&blocks);
        }
        let mut mark = [[false; 7]; 5];
        for x in 0..5 {
            for y in 0..7 {
                let c = g[x][y];
                if c == 0 {
                    continue;
                }
                if x + 2 < 5 && g[x + 1][y] == c && g[x + 2][y] == c {
                    (mark[x][y], mark[x + 1][y], mark[x + 2][y]) = (true, true, true);
                }
                if y + 2 < 7 && g[x][y + 1] == c && g[x][y + 2] == c {
                    (mark[x][y], mark[x][y + 1], mark[x][y + 2]) = (true, true, true);
                }
            }
        }
        if !mark.iter().flatten().any(|&m| m) {
            return;
        }
        for x in 0..5 {
            for y in 0..7 {
                if mark[x][y] {
                    g[x][y] = 0;
                }
            }
        }
    }
}

fn is_empty(g: &Grid) -> bool {
    g.iter().flatten().all(|&c| c == 0)
}

/// Every move sequence in answer order; the first solution found.
fn brute(g: &Grid, k: u32, reading: Reading) -> Option<Vec<(i64, i64, i64)>> {
    for x in 0..5i64 {
        for y in 0..7i64 {
            for dir in [1i64, -1] {
                let tx = x + dir;
                let (xu, yu) = (x as usize, y as usize);
                if g[xu][yu] == 0 || !(0..5).contains(&tx) {
                    continue;
                }
                if !reading.count_noop && g[tx as usize][yu] == g[xu][yu] {
                    continue;
                }
                let mut next = *g;
                next[xu][yu] = g[tx as usize][yu];
                next[tx as usize][yu] = g[xu][yu];
                naive_settle(&mut next);
                if is_empty(&next) {
                    if k == 1 || reading.at_most {
                        return Some(vec![(x, y, dir)]);
                    }
                    continue;
                }
                if k > 1
                    && let Some(mut rest) = brute(&next, k - 1, reading)
                {
                    rest.insert(0, (x, y, dir));
                    return Some(rest);
                }
            }
        }
    }
    None
}

fn brute_answer(p: &Puzzle, reading: Reading) -> Option<Vec<(i64, i64, i64)>> {
    let g = grid_of(&p.board);
    if is_empty(&g) {
        return reading.at_most.then(Vec::new);
    }
    brute(&g, p.n, reading)
}

fn as_triples(moves: &[Move]) -> Vec<(i64, i64, i64)> {
    moves
        .iter()
        .map(|m| (m.x as i64, m.y as i64, m.dir.g() as i64))
        .collect()
}

/// The solver and the exhaustive search give the same answer under every
/// reading.
fn agree(p: &Puzzle) -> Result<(), TestCaseError> {
    for reading in Reading::ALL {
        let ours = solve(p, reading).moves.map(|m| as_triples(&m));
        prop_assert_eq!(
            ours,
            brute_answer(p, reading),
            "{:?} n={} {}",
            p.board,
            p.n,
            reading
        );
    }
    Ok(())
}

// ---- Boards ---------------------------------------------------------------

/// A puzzle built backwards from the empty board with `n` moves, `blocks`
/// blocks and the first `colours` of a shuffled palette, with the moves that
/// solve it (not always the smallest solution), or `None` when the attempt
/// failed.
fn constructed(seed: u64, n: u32, blocks: u32, colours: usize) -> Option<(Puzzle, Vec<Move>)> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut palette: Vec<u8> = (1..=10).collect();
    rng.shuffle(&mut palette);
    palette.truncate(colours);
    (0..20)
        .find_map(|_| construct(&mut rng, n, blocks, &palette))
        .map(|c| (c.puzzle, c.moves))
}

fn board_strategy(max_blocks: usize, max_colours: usize) -> impl Strategy<Value = Board> {
    (any::<u64>(), 0..=max_blocks, 1..=max_colours).prop_filter_map(
        "shape has a board",
        |(seed, blocks, colours)| {
            BoardGen::new(seed).board(Shape {
                blocks,
                colours,
                min_three_each: false,
            })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn after_any_move_nothing_floats_and_no_run_remains(b in board_strategy(35, 10)) {
        for mv in b.legal_moves() {
            let mut after = b;
            after.play(mv);
            prop_assert!(!after.has_floating(), "{b:?} {mv}");
            prop_assert!(!after.has_run(), "{b:?} {mv}");
        }
    }

    #[test]
    fn the_packed_board_plays_like_the_naive_one(b in board_strategy(35, 6)) {
        for mv in b.legal_moves() {
            let mut ours = b;
            ours.play(mv);
            let mut naive = grid_of(&b);
            let (x, y, tx) = (mv.x as usize, mv.y as usize, mv.target_x() as usize);
            (naive[x][y], naive[tx][y]) = (naive[tx][y], naive[x][y]);
            naive_settle(&mut naive);
            prop_assert_eq!(grid_of(&ours), naive, "{:?} {}", b, mv);
        }
    }

    #[test]
    fn a_swap_keeps_the_colours(b in board_strategy(35, 10)) {
        for mv in b.legal_moves() {
            let mut swapped = b;
            swapped.swap(mv);
            prop_assert_eq!(swapped.colour_counts(), b.colour_counts());
        }
    }

    #[test]
    fn the_solvers_answer_replays_to_an_empty_board(b in board_strategy(20, 4), n in 1u32..=4) {
        let p = Puzzle { n, board: b };
        if let Some(moves) = solve(&p, Reading::LITERAL).moves {
            prop_assert_eq!(moves.len(), n as usize);
            let mut board = b;
            for (i, mv) in moves.iter().enumerate() {
                prop_assert!(!board.is_empty(), "emptied before move {}", i + 1);
                let legal = board.check_move(mv.x as i64, mv.y as i64, mv.dir.g() as i64, true);
                prop_assert_eq!(legal, Ok(*mv));
                board.play(*mv);
            }
            prop_assert!(board.is_empty());
        }
    }

    #[test]
    fn the_solver_agrees_with_exhaustive_search_under_every_reading(
        b in board_strategy(12, 4),
        n in 1u32..=3,
    ) {
        let p = Puzzle { n, board: b };
        for reading in Reading::ALL {
            let ours = solve(&p, reading).moves.map(|m| as_triples(&m));
            prop_assert_eq!(ours, brute_answer(&p, reading), "{:?} n={} {}", b, n, reading);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// What the bound claims, checked along a known solution at every step:
    /// each colour's `D_c` is at most the number of the remaining moves that
    /// move one of its blocks (so the bound is at most the moves left), the
    /// bound lets the solution's move through, and after a move that removes
    /// nothing the solver's quick update equals the bound of the new board.
    /// Up to 35 blocks in up to five colours, so colours of six to ten
    /// blocks are common.
    #[test]
    fn along_a_solution_each_colour_moves_at_least_its_displacement(
        seed in any::<u64>(),
        n in 1u32..=8,
        colours in 1usize..=5,
        extra in 0u32..=30,
    ) {
        let blocks = (3 * n + extra).min(35).min(10 * n);
        // A board the construction gave up on is not a case: proptest draws
        // another (and fails if it has to give up too often).
        let Some((puzzle, moves)) = constructed(seed, n, blocks, colours) else {
            prop_assume!(false);
            unreachable!()
        };
        let mut boards = vec![puzzle.board];
        for &mv in &moves {
            let mut b = *boards.last().unwrap();
            b.play(mv);
            boards.push(b);
        }
        let mover = |i: usize| {
            let (b, mv) = (boards[i], moves[i]);
            (b.get(mv.x as usize, mv.y as usize), b.get(mv.target_x() as usize, mv.y as usize))
        };
        for i in 0..moves.len() {
            let (board, mv, k) = (boards[i], moves[i], (moves.len() - i) as u32);
            let bound = Bound::of(&board);
            prop_assert!(bound.moves() <= k, "bound {} with {} moves left: {:?}", bound.moves(), k, board);
            for c in 1..=10u8 {
                let moved = (i..moves.len())
                    .filter(|&j| {
                        let (a, b) = mover(j);
                        a != b && (a == c || b == c)
                    })
                    .count() as u32;
                prop_assert!(
                    bound.displacement(c) <= moved,
                    "colour {} has D = {} but moves {} times in the last {} moves of {:?}",
                    c, bound.displacement(c), moved, k, puzzle
                );
            }
            let (a, b) = mover(i);
            let (from, to) = (mv.x as usize, mv.target_x() as usize);
            prop_assert!(bound.allows(k, a, b, from, to), "move {} of {:?} not allowed", mv, board);
            let next = boards[i + 1];
            if next.block_count() == board.block_count() {
                prop_assert_eq!(bound.after(a, b, from, to), Bound::of(&next));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The family the bound was made for: five colours of six or seven
    /// blocks each (30 to 35 blocks), with one or two moves.
    #[test]
    fn five_colours_of_six_or_seven_blocks_agree_with_exhaustive_search(
        seed in any::<u64>(),
        n in 1u32..=2,
        sevens in 0usize..=5,
    ) {
        let counts: Vec<usize> = (0..5).map(|i| if i < sevens { 7 } else { 6 }).collect();
        if let Some(board) = BoardGen::new(seed).board_with_counts(&counts) {
            agree(&Puzzle { n, board })?;
        }
    }

    /// Solvable boards whose colours have many blocks: two moves before the
    /// end of a built puzzle with one to five colours, solved with one, two
    /// and three moves (under `at-most`, fewer may do).
    #[test]
    fn many_blocks_of_few_colours_agree_with_exhaustive_search(
        seed in any::<u64>(),
        n in 2u32..=5,
        colours in 1usize..=5,
        extra in 0u32..=20,
    ) {
        let blocks = (3 * n + extra).min(35).min(10 * n);
        let Some((puzzle, moves)) = constructed(seed, n, blocks, colours) else {
            prop_assume!(false);
            unreachable!()
        };
        let mut board = puzzle.board;
        for &mv in &moves[..moves.len() - 2] {
            board.play(mv);
        }
        for n in 1..=3 {
            if n < 3 || board.block_count() <= 12 {
                agree(&Puzzle { n, board })?;
            }
        }
    }
}

/// The comparison above means little if nearly every board is `-1`: on a fixed
/// sweep of small boards, check agreement and that many have solutions.
#[test]
fn exhaustive_comparison_sees_many_solvable_boards() {
    let mut boards = BoardGen::new(42);
    let mut solvable = [0usize; 4];
    let total = 400;
    for i in 0..total {
        let shape = Shape {
            blocks: 3 + i % 7,
            colours: 1 + i % 2,
            min_three_each: false,
        };
        let Some(board) = boards.board(shape) else {
            continue;
        };
        let p = Puzzle {
            n: 2 + (i % 2) as u32,
            board,
        };
        for (r, reading) in Reading::ALL.into_iter().enumerate() {
            let ours = solve(&p, reading).moves.map(|m| as_triples(&m));
            assert_eq!(ours, brute_answer(&p, reading), "{board:?} n={} {reading}", p.n);
            solvable[r] += ours.is_some() as usize;
        }
    }
    eprintln!("solvable of {total}, by reading: {solvable:?}");
    for (r, reading) in Reading::ALL.into_iter().enumerate() {
        assert!(
            solvable[r] >= 60,
            "{reading}: only {} of {total} solvable",
            solvable[r]
        );
    }
}

// ---- Pinned answers ---------------------------------------------------------

/// The benchmark boards of `reference/bench/` (five colours of six or seven
/// blocks; with no solution at the top, built with one in `solvable/`) keep
/// their answers. Each `.ans` was checked against the memoised C++ search
/// (`reference/bench/memo.cpp`) when the board was added.
#[test]
fn the_benchmark_boards_keep_their_answers() {
    let dir = crate::util::manifest().join("reference/bench");
    let mut checked = 0;
    for folder in [dir.clone(), dir.join("solvable")] {
        let mut inputs: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "in"))
            .collect();
        inputs.sort();
        for input in inputs {
            let puzzle = Puzzle::parse(&std::fs::read(&input).unwrap()).expect("valid puzzle");
            let expected = std::fs::read_to_string(input.with_extension("ans")).unwrap();
            let got = solve(&puzzle, Reading::LITERAL).to_text();
            assert_eq!(got, expected, "{}", input.display());
            checked += 1;
        }
    }
    assert_eq!(checked, 11, "boards in {}", dir.display());
}
