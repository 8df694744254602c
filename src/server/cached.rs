//! A teacher's page's computation kept with the key it was made at (the
//! analysis of the class, made again only when a result changed). Below
//! `app`, which holds it.

use std::sync::{Arc, Mutex};

/// The last value made and the key it was made at; misses at the same
/// time are merged (one makes the value, the others wait for it).
pub struct Cached<K, V> {
    kept: Mutex<Option<(K, Arc<V>)>>,
    /// Held while a value is made.
    making: Mutex<()>,
}

impl<K, V> Default for Cached<K, V> {
    fn default() -> Self {
        Cached {
            kept: Mutex::new(None),
            making: Mutex::new(()),
        }
    }
}

impl<K: PartialEq, V> Cached<K, V> {
    /// The value kept for `key`, or the one `make` makes, kept from now
    /// on. A miss while another is being made waits for it, and takes
    /// its value when it is for the same key (a class's analysis read by
    /// several of the teacher's tabs at once is drawn once).
    pub fn get_or<E>(&self, key: K, make: impl FnOnce() -> Result<V, E>) -> Result<Arc<V>, E> {
        if let Some(v) = self.kept_for(&key) {
            return Ok(v);
        }
        let _turn = self.making.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = self.kept_for(&key) {
            return Ok(v);
        }
        let v = Arc::new(make()?);
        *self.kept.lock().unwrap_or_else(|p| p.into_inner()) = Some((key, v.clone()));
        Ok(v)
    }

    fn kept_for(&self, key: &K) -> Option<Arc<V>> {
        match &*self.kept.lock().unwrap_or_else(|p| p.into_inner()) {
            Some((k, v)) if k == key => Some(v.clone()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn misses_at_the_same_time_make_the_value_once() {
        let cached: Cached<u64, String> = Cached::default();
        let made = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    let v = cached.get_or(1, || {
                        made.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(100));
                        Ok::<_, ()>("analysis".to_string())
                    });
                    assert_eq!(v.unwrap().as_str(), "analysis");
                });
            }
        });
        assert_eq!(made.load(Ordering::SeqCst), 1);
        // A new key is made again.
        let v = cached.get_or(2, || Ok::<_, ()>("again".to_string())).unwrap();
        assert_eq!((v.as_str(), made.load(Ordering::SeqCst)), ("again", 1));
    }
}
