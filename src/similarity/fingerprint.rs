//! k-grams of tokens and winnowing (Schleimer, Wilkerson and Aiken, "Winnowing:
//! local algorithms for document fingerprinting", SIGMOD 2003).
//!
//! A k-gram is `K` consecutive tokens packed into a `u64` (5 bits a token, so
//! two k-grams are equal exactly when their keys are: no hash collisions).
//! Winnowing keeps, in every window of `W` consecutive k-grams, the one whose
//! scrambled key is smallest: any match of at least `W + K - 1` tokens shares
//! a fingerprint, and a program keeps about `2 / (W + 1)` of its k-grams.

use super::tokens::Token;

/// Tokens in a k-gram: the shortest match that counts (JPlag's minimum
/// match length for C++ is 12 of its tokens).
pub const K: usize = 12;

/// The winnowing window, in k-grams.
pub const W: usize = 8;

/// The key of every k-gram of `tokens`, by start position.
pub fn kgrams(tokens: &[Token]) -> Vec<u64> {
    if tokens.len() < K {
        return Vec::new();
    }
    let mask = (1u64 << (5 * K)) - 1;
    let mut key = 0u64;
    let mut out = Vec::with_capacity(tokens.len() + 1 - K);
    for (i, t) in tokens.iter().enumerate() {
        key = ((key << 5) | t.tok as u64) & mask;
        if i + 1 >= K {
            out.push(key);
        }
    }
    out
}

/// A key scrambled so that the smallest of a window is a random-looking
/// choice (splitmix64's finaliser).
fn scramble(key: u64) -> u64 {
    let mut z = key.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The winnowed fingerprints of a program's k-gram keys (`None` for a k-gram
/// that must not count): sorted, without repeats.
pub fn winnow(keys: &[Option<u64>]) -> Vec<u64> {
    let mut out = Vec::new();
    if keys.is_empty() {
        return out;
    }
    let w = W.min(keys.len());
    let mut last: Option<usize> = None;
    for start in 0..=keys.len() - w {
        let best = (start..start + w)
            .filter_map(|i| keys[i].map(|k| (scramble(k), i)))
            .min_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((_, i)) = best
            && last != Some(i)
        {
            out.push(keys[i].expect("chosen among present keys"));
            last = Some(i);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::tokens::Tok;

    fn toks(s: &[Tok]) -> Vec<Token> {
        s.iter()
            .map(|&tok| Token {
                tok,
                line: 1,
                name: 0,
            })
            .collect()
    }

    #[test]
    fn equal_kgrams_have_equal_keys_and_different_ones_differ() {
        let mut a = vec![Tok::Id; K];
        let k1 = kgrams(&toks(&a));
        a[0] = Tok::Num;
        let k2 = kgrams(&toks(&a));
        assert_eq!(k1.len(), 1);
        assert_ne!(k1, k2);
    }

    #[test]
    fn a_long_shared_run_shares_a_fingerprint() {
        let alphabet = [
            Tok::Id,
            Tok::Num,
            Tok::Assign,
            Tok::Loop,
            Tok::Call,
            Tok::Arith,
            Tok::Index,
        ];
        let run: Vec<Tok> = (0..W + K + 5).map(|i| alphabet[(i * i + 3 * i) % 7]).collect();
        let mut a = vec![Tok::Str; 7];
        a.extend(&run);
        let mut b = run.clone();
        b.extend(vec![Tok::Bool; 9]);
        let fa = winnow(&kgrams(&toks(&a)).into_iter().map(Some).collect::<Vec<_>>());
        let fb = winnow(&kgrams(&toks(&b)).into_iter().map(Some).collect::<Vec<_>>());
        assert!(fa.iter().any(|f| fb.binary_search(f).is_ok()));
    }
}
