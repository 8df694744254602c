//! Helpers shared by the crate's unit tests (compiled only for them).

/// Runs `attempt` until it returns `Ok`, at most `tries` times, for a test
/// whose scenario a loaded machine can spoil without anything being wrong
/// (a thread not scheduled in time, a page the host evicted meanwhile):
/// `Err` says how this try was spoilt. A scenario spoilt every time fails,
/// naming `what` and the last try's account; a broken property fails
/// inside `attempt`, on the first try.
pub(crate) fn retried<T>(tries: usize, what: &str, mut attempt: impl FnMut() -> Result<T, String>) -> T {
    let mut last = String::new();
    for _ in 0..tries {
        match attempt() {
            Ok(t) => return t,
            Err(why) => last = why,
        }
    }
    panic!("{what} in {tries} tries; the last: {last}");
}
