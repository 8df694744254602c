//! Landlock: a second fence around the file system, behind the private
//! root. Even if a bind or a mount of the root were wrong, the program may
//! then only read and execute below the folders bound into its root, write
//! only below `/box`, `/tmp` and `/dev/shm`, and use the device files it was
//! given; it can never make device nodes.
//!
//! The `landlock` crate builds rulesets with allocations, which are not
//! allowed between `fork` and `exec` of a multi-threaded judge, and its
//! rules must name folders as the run sees them (inside the private root,
//! where `/tmp` and `/proc` exist only after the root is built). So the
//! run's init makes the ruleset with the three Landlock system calls, on
//! paths prepared in the parent ([`Fence`]), and the program restricts
//! itself with it just before `exec` ([`restrict`]).

use std::ffi::CString;
use std::io;

use linux_raw_sys::landlock as ll;
use nix::libc;

/// Read, list and execute.
const READ: u64 = (ll::LANDLOCK_ACCESS_FS_EXECUTE
    | ll::LANDLOCK_ACCESS_FS_READ_FILE
    | ll::LANDLOCK_ACCESS_FS_READ_DIR) as u64;
/// Everything in a tree of one's own but device nodes.
const WRITE_TREE: u64 = READ
    | (ll::LANDLOCK_ACCESS_FS_WRITE_FILE
        | ll::LANDLOCK_ACCESS_FS_REMOVE_DIR
        | ll::LANDLOCK_ACCESS_FS_REMOVE_FILE
        | ll::LANDLOCK_ACCESS_FS_MAKE_DIR
        | ll::LANDLOCK_ACCESS_FS_MAKE_REG
        | ll::LANDLOCK_ACCESS_FS_MAKE_SOCK
        | ll::LANDLOCK_ACCESS_FS_MAKE_FIFO
        | ll::LANDLOCK_ACCESS_FS_MAKE_SYM
        | ll::LANDLOCK_ACCESS_FS_REFER
        | ll::LANDLOCK_ACCESS_FS_TRUNCATE) as u64;
/// A device file: read and write.
const DEVICE: u64 = (ll::LANDLOCK_ACCESS_FS_READ_FILE
    | ll::LANDLOCK_ACCESS_FS_WRITE_FILE
    | ll::LANDLOCK_ACCESS_FS_TRUNCATE) as u64;

/// The file-system rights a kernel of this Landlock ABI knows.
fn handled(abi: i64) -> u64 {
    let mut rights = (ll::LANDLOCK_ACCESS_FS_MAKE_SYM << 1) as u64 - 1; // ABI 1: bits 0..=12
    if abi >= 2 {
        rights |= ll::LANDLOCK_ACCESS_FS_REFER as u64;
    }
    if abi >= 3 {
        rights |= ll::LANDLOCK_ACCESS_FS_TRUNCATE as u64;
    }
    rights
}

/// The Landlock ABI version of this kernel, `None` without Landlock.
pub(crate) fn abi() -> Option<i64> {
    // SAFETY: the documented version query: null attribute, size 0.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<ll::landlock_ruleset_attr>(),
            0usize,
            ll::LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    (v > 0).then_some(v)
}

/// The rules of one run, as paths inside its root.
#[derive(Debug)]
pub(crate) struct Fence {
    abi: i64,
    rules: Vec<(CString, u64)>,
}

impl Fence {
    /// Rules for a root whose read-only folders are `read_only` (inside
    /// paths), with `/proc` readable when `proc` (a compilation's is not:
    /// only its links are followed, `/proc/self/exe` say); `None` when the
    /// kernel has no Landlock.
    pub(crate) fn new(read_only: &[&str], proc: bool) -> Option<Fence> {
        let abi = abi()?;
        let c = |p: &str| CString::new(p).expect("no NUL");
        let mut rules: Vec<(CString, u64)> = read_only.iter().map(|p| (c(p), READ)).collect();
        if proc {
            rules.push((c("/proc"), READ));
        }
        rules.push((c("/dev"), READ));
        for dir in ["/box", "/tmp", "/dev/shm"] {
            rules.push((c(dir), WRITE_TREE));
        }
        for dev in [
            "/dev/null",
            "/dev/zero",
            "/dev/full",
            "/dev/random",
            "/dev/urandom",
        ] {
            rules.push((c(dev), DEVICE));
        }
        Some(Fence { abi, rules })
    }

    /// In the run's init, inside the built root: the ruleset's descriptor.
    /// System calls only. A path that does not exist is skipped.
    pub(crate) fn create(&self) -> io::Result<i32> {
        let handled = handled(self.abi);
        let attr = ll::landlock_ruleset_attr {
            handled_access_fs: handled,
            handled_access_net: 0,
            scoped: 0,
        };
        // Only the fields this ABI knows (the fs field alone before ABI 4).
        let size = if self.abi >= 4 {
            std::mem::size_of::<ll::landlock_ruleset_attr>()
        } else {
            std::mem::size_of::<u64>()
        };
        // SAFETY: a valid attribute of the given size.
        let fd = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, &attr, size, 0u32) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let fd = fd as i32;
        for (path, rights) in &self.rules {
            // SAFETY: a valid C string; the descriptor is closed below.
            let dir = unsafe { libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
            if dir < 0 {
                continue;
            }
            let rule = ll::landlock_path_beneath_attr {
                allowed_access: rights & handled,
                parent_fd: dir,
            };
            // SAFETY: valid descriptors and a rule of the documented layout.
            let r = unsafe {
                libc::syscall(
                    libc::SYS_landlock_add_rule,
                    fd,
                    ll::landlock_rule_type::LANDLOCK_RULE_PATH_BENEATH as u32,
                    &rule,
                    0u32,
                )
            };
            let err = io::Error::last_os_error();
            unsafe { libc::close(dir) };
            if r < 0 {
                unsafe { libc::close(fd) };
                return Err(err);
            }
        }
        Ok(fd)
    }
}

/// In the program, after `no_new_privs`: enforce the ruleset and close it.
pub(crate) fn restrict(fd: i32) -> io::Result<()> {
    // SAFETY: plain system calls on a descriptor this process owns.
    let r = unsafe { libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) };
    let err = io::Error::last_os_error();
    unsafe { libc::close(fd) };
    if r < 0 { Err(err) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_never_include_device_nodes_and_fit_the_abi() {
        assert_eq!(WRITE_TREE & ll::LANDLOCK_ACCESS_FS_MAKE_CHAR as u64, 0);
        assert_eq!(WRITE_TREE & ll::LANDLOCK_ACCESS_FS_MAKE_BLOCK as u64, 0);
        assert_eq!(handled(1), 0x1fff);
        assert_eq!(handled(3) & WRITE_TREE, WRITE_TREE);
    }
}
