//! The system-call filter of untrusted runs (and compilations).
//!
//! A deny list, compiled once by `seccompiler` into classic BPF: the calls a
//! judged program never needs and a sandbox escape often starts with fail
//! with `EPERM`, so the program sees an error rather than a mysterious kill.
//! `clone3` fails with `ENOSYS` instead: its flags live in memory a filter
//! cannot read, and libc then falls back to `clone`, whose flags the filter
//! checks. Both go into one program ([`with_clone3_enosys`]): one filter a
//! run to compile and attach. The filter is installed in the child after
//! `no_new_privs`, the last step before `exec`, and stays for every process
//! of the run.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch,
};
use std::collections::BTreeMap;

use nix::libc;

/// Calls refused outright: namespaces, mounts, tracing other processes,
/// kernel interfaces with a history of escapes, modules, reboot.
const DENIED: &[i64] = &[
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_kcmp,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_fanotify_init,
    libc::SYS_quotactl,
    libc::SYS_syslog,
    libc::SYS_vhangup,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_adjtimex,
    libc::SYS_clock_adjtime,
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
    libc::SYS_lookup_dcookie,
];

/// `clone` flags that create namespaces.
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWCGROUP as u64,
];

/// The filters, in the order they are installed (one where the deny list
/// takes `clone3`'s check).
#[derive(Debug, Clone)]
pub(crate) struct Filters {
    pub(crate) programs: Vec<BpfProgram>,
}

fn cond(arg: u8, op: SeccompCmpOp, value: u64) -> SeccompCondition {
    SeccompCondition::new(arg, SeccompCmpArgLen::Qword, op, value).expect("argument index under 6")
}

fn rule(conditions: Vec<SeccompCondition>) -> SeccompRule {
    SeccompRule::new(conditions).expect("at least one condition")
}

fn compile(rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32) -> BpfProgram {
    let arch = TargetArch::try_from(std::env::consts::ARCH).expect("a supported architecture");
    SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch,
    )
    .and_then(TryInto::try_into)
    .map_err(|e| e.to_string())
    .expect("the built-in filter compiles")
}

impl Filters {
    /// The deny list, compiled for this machine's architecture; `None` on
    /// an architecture `seccompiler` does not know (then the protections
    /// line says there is no filter).
    pub(crate) fn build() -> Option<Filters> {
        TargetArch::try_from(std::env::consts::ARCH).ok()?;
        let mut rules: BTreeMap<i64, Vec<SeccompRule>> = DENIED.iter().map(|&s| (s, Vec::new())).collect();
        // clone with any namespace flag.
        rules.insert(
            libc::SYS_clone,
            NAMESPACE_FLAGS
                .iter()
                .map(|&f| rule(vec![cond(0, SeccompCmpOp::MaskedEq(f), f)]))
                .collect(),
        );
        // personality: only the query (0xffffffff) and the default (0).
        rules.insert(
            libc::SYS_personality,
            vec![rule(vec![
                cond(0, SeccompCmpOp::Ne, 0xffff_ffff),
                cond(0, SeccompCmpOp::Ne, 0),
            ])],
        );
        let deny = compile(rules, libc::EPERM);
        let programs = match with_clone3_enosys(&deny) {
            Some(one) => vec![one],
            None => vec![
                deny,
                compile(BTreeMap::from([(libc::SYS_clone3, Vec::new())]), libc::ENOSYS),
            ],
        };
        Some(Filters { programs })
    }
}

/// The deny list with `clone3`'s `ENOSYS` put in front of its rules: one
/// filter a run instead of two (the kernel compiles each filter attached
/// and runs each on every system call). `seccompiler` gives one action to
/// every rule of a filter, so the check is spliced in right after the
/// program loads the call's number: the architecture check before it jumps
/// only within itself, and every jump after it is relative and forward, so
/// each still lands where it did. `None` when the program does not start
/// as expected (then both filters are installed, one after the other).
fn with_clone3_enosys(deny: &BpfProgram) -> Option<BpfProgram> {
    const LD_ABS_W: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const RET_K: u16 = 0x06; // BPF_RET | BPF_K
    const ARCH_OFFSET: u32 = 4; // seccomp_data.arch
    const NR_OFFSET: u32 = 0; // seccomp_data.nr
    let op = |i: usize| deny.get(i).map(|f| (f.code, f.jt, f.jf, f.k));
    let arch_ok = matches!(op(1), Some((JEQ_K, 1, 0, _)));
    let start = op(0) == Some((LD_ABS_W, 0, 0, ARCH_OFFSET))
        && arch_ok
        && matches!(op(2), Some((RET_K, 0, 0, _)))
        && op(3) == Some((LD_ABS_W, 0, 0, NR_OFFSET));
    if !start {
        return None;
    }
    let at = |code, jt, jf, k| seccompiler::sock_filter { code, jt, jf, k };
    let mut one = deny[..4].to_vec();
    one.push(at(JEQ_K, 0, 1, libc::SYS_clone3 as u32));
    one.push(at(RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32));
    one.extend_from_slice(&deny[4..]);
    Some(one)
}

/// Installs the filters in the calling process (after `no_new_privs`).
/// Only system calls: safe between `fork` and `exec`.
pub(crate) fn install(filters: &Filters) -> std::io::Result<()> {
    for program in &filters.programs {
        let prog = libc::sock_fprog {
            len: program.len() as u16,
            filter: program.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: `prog` points into a live Vec of BPF instructions that
        // outlives the call; the kernel copies the program.
        let r = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &prog as *const libc::sock_fprog,
            )
        };
        if r != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_on_this_machine_into_one() {
        let f = Filters::build().expect("x86_64 and aarch64 are supported");
        assert_eq!(
            f.programs.len(),
            1,
            "clone3's check is spliced into the deny list"
        );
        assert!(f.programs.iter().all(|p| !p.is_empty()));
    }

    /// Installs the filters in a forked child and returns what it saw, as
    /// the child's exit code: 0 when every call answered as the module
    /// says, else the number of the first check that failed.
    fn checked_in_a_child(filters: &Filters) -> i32 {
        // SAFETY: the child only makes system calls and `_exit`s.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork: {}", std::io::Error::last_os_error());
        if pid == 0 {
            let errno = |r: libc::c_long| {
                if r < 0 {
                    std::io::Error::last_os_error().raw_os_error()
                } else {
                    Some(0)
                }
            };
            // SAFETY: system calls with integer arguments (clone3 with a
            // null argument fails before reading it).
            let code = unsafe {
                libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
                if install(filters).is_err() {
                    1
                } else if errno(libc::syscall(libc::SYS_clone3, 0usize, 0usize)) != Some(libc::ENOSYS) {
                    2
                } else if errno(libc::syscall(libc::SYS_unshare, 0usize)) != Some(libc::EPERM) {
                    3
                } else if errno(libc::syscall(
                    libc::SYS_clone,
                    libc::CLONE_NEWUSER as usize,
                    0usize,
                    0usize,
                    0usize,
                    0usize,
                )) != Some(libc::EPERM)
                {
                    4
                } else if errno(libc::syscall(libc::SYS_personality, 0xffff_ffffusize)) == Some(libc::EPERM)
                    || errno(libc::syscall(libc::SYS_personality, 0x0040_0000usize)) != Some(libc::EPERM)
                {
                    5
                } else if errno(libc::syscall(libc::SYS_getppid)) != Some(0) {
                    6
                } else {
                    0
                }
            };
            unsafe { libc::_exit(code) };
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "the child died: {status:#x}");
        libc::WEXITSTATUS(status)
    }

    #[test]
    fn the_one_filter_answers_clone3_with_enosys_and_the_deny_list_with_eperm() {
        let f = Filters::build().expect("x86_64 and aarch64 are supported");
        assert_eq!(
            checked_in_a_child(&f),
            0,
            "a check failed (see checked_in_a_child)"
        );
    }
}
