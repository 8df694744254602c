//! Who is asking: passwords (argon2id, stored as PHC strings), session
//! cookies and API tokens (random, stored only as their SHA-256), and the
//! CSRF token every form carries.

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use rand::Rng;
use sha2::{Digest, Sha256};

/// How long a session lasts, seconds.
pub const SESSION_SECS: i64 = 14 * 3600;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "mj_session";

/// The cookie a signed-out browser carries for the sign-in form's CSRF token.
pub const LOGIN_COOKIE: &str = "mj_login";

/// Hashes a password with argon2id and a random salt (a PHC string).
pub fn hash_password(password: &str) -> String {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .unwrap_or_default()
}

/// Whether a password matches a stored hash (a malformed hash matches nothing).
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
        .unwrap_or(false)
}

/// A fresh random token: 32 bytes from the OS-seeded CSPRNG, in hex.
pub fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

/// What the database keeps of a token: its SHA-256, in hex (a stolen
/// database gives no session away).
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.as_bytes().ct_eq(b.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("correct horsf", &h));
        assert!(!verify_password("x", "not a hash"));
    }

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let (a, b) = (random_token(), random_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_ne!(token_hash(&a), a);
        assert!(same_secret(&a, &a.clone()) && !same_secret(&a, &b));
    }
}
