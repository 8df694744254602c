//! A teacher's page's computation kept with the key it was made at (the
//! analysis of the class, made again only when a result changed). Below
//! `app`, which holds it.

use std::sync::{Arc, Mutex};

/// The last value made and the key it was made at.
pub struct Cached<K, V>(Mutex<Option<(K, Arc<V>)>>);

impl<K, V> Default for Cached<K, V> {
    fn default() -> Self {
        Cached(Mutex::new(None))
    }
}

impl<K: PartialEq, V> Cached<K, V> {
    /// The value kept for `key`, or the one `make` makes, kept from now on.
    pub fn get_or<E>(&self, key: K, make: impl FnOnce() -> Result<V, E>) -> Result<Arc<V>, E> {
        if let Some((k, v)) = &*self.0.lock().unwrap_or_else(|p| p.into_inner())
            && *k == key
        {
            return Ok(v.clone());
        }
        let v = Arc::new(make()?);
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some((key, v.clone()));
        Ok(v)
    }
}
