//! Functions called once, written where they are called: a helper inlined
//! by hand, or a block extracted into a function of its own, gives the
//! tokens of the program that did not do so.

use super::{Tok, Token};
use std::collections::HashMap;

/// The longest function (in tokens) written where it is called: a small
/// helper, not the search itself.
pub const MAX_INLINED: usize = 400;

/// Inlined functions inside inlined functions, at most this deep.
const MAX_NESTING: usize = 4;

/// `toks` with every small function that returns nothing (a helper with a
/// `return` written inside its caller reads as another program) called
/// exactly once, from outside itself, written at its call (without its name and parameters) and not
/// where it is defined; the call's `Call` and the name called are dropped,
/// its arguments kept. A function defined twice under one name is left as
/// it is. Each token is written at most once (a function has one call), so
/// the result is never longer than `toks`; the walk keeps its own stack.
pub fn called_once(toks: &[Token]) -> Vec<Token> {
    let spans = spans(toks);
    let mut calls: HashMap<u32, Vec<usize>> = HashMap::new();
    for (i, t) in toks.iter().enumerate() {
        if t.tok == Tok::Call && t.name != 0 {
            calls.entry(t.name).or_default().push(i);
        }
    }
    let inlined: HashMap<u32, (usize, usize)> = spans
        .into_iter()
        .filter_map(|(name, span)| {
            let (start, end) = span?;
            let at = match calls.get(&name).map(Vec::as_slice) {
                Some(&[at]) => at,
                _ => return None,
            };
            let outside = at < start || at > end;
            let returns = toks[start..end].iter().any(|t| t.tok == Tok::Return);
            (outside && !returns && end - start <= MAX_INLINED).then_some((name, (start, end)))
        })
        .collect();
    // A function whose one call is in code never written (functions that
    // call each other once, and nothing else calls) would vanish: those are
    // left where they are, and what is left tried again.
    let mut inlined = inlined;
    for _ in 0..MAX_NESTING {
        if inlined.is_empty() {
            break;
        }
        let (out, unreached) = write(toks, &inlined);
        if unreached.is_empty() {
            return out;
        }
        inlined.retain(|name, _| !unreached.contains(name));
    }
    toks.to_vec()
}

/// Each function name defined once, and its `Func`..`FuncEnd` token range
/// (inclusive); `None` for a name defined more than once.
fn spans(toks: &[Token]) -> HashMap<u32, Option<(usize, usize)>> {
    let mut spans: HashMap<u32, Option<(usize, usize)>> = HashMap::new();
    let mut open: Vec<(usize, u32)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Func => open.push((i, t.name)),
            Tok::FuncEnd => {
                if let Some((start, name)) = open.pop()
                    && name != 0
                {
                    spans
                        .entry(name)
                        .and_modify(|s| *s = None)
                        .or_insert(Some((start, i)));
                }
            }
            _ => {}
        }
    }
    spans
}

/// The tokens written with `inlined` functions at their calls, and the
/// inlined functions whose call was never reached.
fn write(toks: &[Token], inlined: &HashMap<u32, (usize, usize)>) -> (Vec<Token>, Vec<u32>) {
    let mut out = Vec::with_capacity(toks.len());
    let mut unreached: std::collections::HashSet<u32> = inlined.keys().copied().collect();
    // Ranges still to write, the next on top, each with its nesting.
    let mut todo: Vec<(usize, usize, usize)> = vec![(0, toks.len(), 0)];
    while let Some((mut i, end, depth)) = todo.pop() {
        while i < end {
            let t = toks[i];
            if t.tok == Tok::Func
                && let Some(&(_, e)) = inlined.get(&t.name)
            {
                i = e + 1; // written at its call
                continue;
            }
            if t.tok == Tok::Call
                && depth < MAX_NESTING
                && let Some(&(s, e)) = inlined.get(&t.name)
            {
                let after = i + 1 + usize::from(toks.get(i + 1).is_some_and(|n| n.tok == Tok::Id));
                unreached.remove(&t.name);
                todo.push((after, end, depth));
                todo.push((body_start(toks, s), e, depth + 1));
                break;
            }
            out.push(t);
            i += 1;
        }
    }
    (out, unreached.into_iter().collect())
}

/// Where a function's body starts: after its `Func`, its name and its
/// parameters (the `Id`s that follow).
fn body_start(toks: &[Token], func: usize) -> usize {
    let mut i = func + 1;
    while toks.get(i).is_some_and(|t| t.tok == Tok::Id) {
        i += 1;
    }
    i
}
