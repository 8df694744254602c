//! Who is asking: passwords (argon2id, stored as PHC strings), session
//! cookies and API tokens (random, stored only as their SHA-256), the
//! CSRF token every form carries, and device cookies (OWASP's scheme
//! against online guessing: a browser that signed in as a name carries
//! a token signed by the server, [`DeviceKey`], that `signin` trusts).

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

/// How long a device cookie is kept by the browser, seconds.
pub const DEVICE_SECS: i64 = 90 * 24 * 3600;

/// The server's key for device cookies: random, kept in a file of its own
/// beside the database ([`DeviceKey::kept_in`]), so that a restart keeps
/// every device its owner signed in from trusted.
pub struct DeviceKey([u8; 32]);

type DeviceMac = blake2::Blake2bMac512;

impl DeviceKey {
    /// A fresh random key.
    pub fn random() -> DeviceKey {
        let mut key = [0u8; 32];
        rand::rng().fill_bytes(&mut key);
        DeviceKey(key)
    }

    /// The key kept in `path`: read when it is 32 bytes only its owner may
    /// read or write (mode 0600, not a link); else a fresh one, written
    /// there first (mode 0600, renamed into place: whole or not at all).
    pub fn kept_in(path: &std::path::Path) -> std::io::Result<DeviceKey> {
        use std::io::{Read, Write};
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let kept = std::fs::File::options()
            .read(true)
            .custom_flags(nix::libc::O_NOFOLLOW)
            .open(path);
        if let Ok(mut file) = kept {
            let private = file.metadata()?.permissions().mode() & 0o077 == 0;
            let mut key = [0u8; 32];
            let mut rest = Vec::new();
            if private && file.read_exact(&mut key).is_ok() && file.read_to_end(&mut rest)? == 0 {
                return Ok(DeviceKey(key));
            }
        }
        let fresh = DeviceKey::random();
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let mut file = tempfile::Builder::new()
            .prefix(".device-key-")
            .tempfile_in(dir.unwrap_or(std::path::Path::new(".")))?;
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))?;
        file.write_all(&fresh.0)?;
        file.as_file().sync_all()?;
        file.persist(path).map_err(|e| e.error)?;
        Ok(fresh)
    }

    fn mac(&self, account: &str, device: &str) -> DeviceMac {
        use blake2::digest::{KeyInit, Mac};
        let mut mac = <DeviceMac as KeyInit>::new_from_slice(&self.0).expect("a 32-byte key fits BLAKE2b");
        mac.update(account.as_bytes());
        mac.update(&[0]);
        mac.update(device.as_bytes());
        mac
    }

    /// A new device cookie's value for `account` (a name as
    /// [`account_key`] folds it): a random device id and its signature.
    pub fn issue(&self, account: &str) -> String {
        use blake2::digest::Mac;
        let device = random_token();
        let tag = self.mac(account, &device).finalize().into_bytes();
        format!("{device}.{}", hex(&tag))
    }

    /// The device id of a cookie's value signed for `account`, or `None`
    /// (another name's, forged or malformed).
    pub fn check(&self, account: &str, value: &str) -> Option<String> {
        use blake2::digest::Mac;
        let (device, tag) = value.split_once('.')?;
        let tag = unhex(tag)?;
        self.mac(account, device).verify_slice(&tag).ok()?;
        Some(device.to_string())
    }
}

/// One account whatever the case or spaces of its name as typed.
pub fn account_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The name of the device cookie for `account` (one per name, so that a
/// browser signed in as several keeps each): `mj_device_` and 16 hex
/// digits of the name's SHA-256.
pub fn device_cookie_name(account: &str) -> String {
    format!("mj_device_{}", &token_hash(&account_key(account))[..16])
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

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
    fn a_device_cookie_is_trusted_for_its_name_only_and_unforgeable() {
        let key = DeviceKey::random();
        let value = key.issue("alice");
        let device = key.check("alice", &value).expect("its own name");
        assert_eq!(value.split_once('.').map(|v| v.0), Some(device.as_str()));
        assert_eq!(key.check("admin", &value), None, "another name");
        assert_eq!(DeviceKey::random().check("alice", &value), None, "another server");
        let forged = format!("{}.{}", "0".repeat(64), &value[65..]);
        assert_eq!(key.check("alice", &forged), None, "another device id");
        for junk in ["", ".", "x.y", "é.é", "ab.abc"] {
            assert_eq!(key.check("alice", junk), None, "{junk:?}");
        }
        assert_eq!(device_cookie_name(" Alice "), device_cookie_name("alice"));
        assert_ne!(device_cookie_name("alice"), device_cookie_name("bob"));
    }

    #[test]
    fn a_device_key_kept_in_a_private_file_outlives_a_restart() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("contest.sqlite.device-key");
        let value = DeviceKey::kept_in(&path).unwrap().issue("alice");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // The next start reads it back: the browser's cookie still holds.
        assert!(
            DeviceKey::kept_in(&path)
                .unwrap()
                .check("alice", &value)
                .is_some()
        );
        // A key others may read, or not a key, is not trusted: replaced.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(
            DeviceKey::kept_in(&path)
                .unwrap()
                .check("alice", &value)
                .is_none()
        );
        std::fs::write(&path, b"short").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let again = DeviceKey::kept_in(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap().len(), 32);
        assert!(
            DeviceKey::kept_in(&path)
                .unwrap()
                .check("alice", &again.issue("alice"))
                .is_some()
        );
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
