//! The system-call filter of untrusted runs (and compilations).
//!
//! A deny list: the calls a judged program never needs and a sandbox escape
//! often starts with fail with `EPERM`, so the program sees an error rather
//! than a mysterious kill. `clone3` fails with `ENOSYS` instead: its flags
//! live in memory a filter cannot read, and libc then falls back to
//! `clone`, whose flags the filter checks. The filter is installed in the
//! child after `no_new_privs`, the last step before `exec`, and stays for
//! every process of the run.
//!
//! The program is a binary search over the listed call numbers
//! ([`deny_list`]), not the chain of comparisons `seccompiler` compiles a
//! rule list into. Attaching a filter, the kernel runs it for every call
//! number the architecture has, to cache which ones it always allows (its
//! action cache, with interrupts off), and each allowed call walked the
//! whole chain, 113 instructions: 0.16 ms of every run. Through the tree
//! an allowed call takes at most 14 (the unit tests count them on every
//! call number). `seccompiler` stays as the reference: the unit tests run
//! both programs on every call number and the arguments that matter, and
//! require the same answers.

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

/// One classic BPF instruction, laid out as the kernel's `sock_filter`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Insn {
    code: u16,
    jt: u8,
    jf: u8,
    k: u32,
}

/// The filter, built once per judge (its launcher) and installed in each
/// run.
#[derive(Debug, Clone)]
pub(crate) struct Filters {
    pub(crate) program: Vec<Insn>,
}

/// `seccomp_data.arch` of this machine's system calls (`AUDIT_ARCH_*`);
/// `None` where the filter is not built.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: Option<u32> = Some(62 | 0xC000_0000);
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: Option<u32> = Some(183 | 0xC000_0000);
#[cfg(target_arch = "riscv64")]
const AUDIT_ARCH: Option<u32> = Some(243 | 0xC000_0000);
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "riscv64")))]
const AUDIT_ARCH: Option<u32> = None;

// Offsets in `struct seccomp_data`: the call's number, its architecture,
// and the two halves of its first argument (little-endian).
const NR: u32 = 0;
const ARCH: u32 = 4;
const ARG0_LOW: u32 = 16;
const ARG0_HIGH: u32 = 20;
const _: () = assert!(
    cfg!(target_endian = "little"),
    "ARG0_LOW and ARG0_HIGH are little-endian"
);

// Instruction codes (linux/bpf_common.h).
const LD_W_ABS: u16 = 0x20;
const JEQ_K: u16 = 0x15;
const JGE_K: u16 = 0x35;
const JSET_K: u16 = 0x45;
const RET_K: u16 = 0x06;

impl Filters {
    /// The deny list for this machine's architecture; `None` on one it is
    /// not built for (then the protections line says there is no filter).
    pub(crate) fn build() -> Option<Filters> {
        Some(Filters {
            program: deny_list(AUDIT_ARCH?),
        })
    }
}

/// Where a listed call goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    /// `clone`: refused with any namespace flag.
    Clone,
    /// `personality`: only the query (0xffffffff) and the default (0).
    Personality,
    /// `clone3`: `ENOSYS`.
    Enosys,
    /// Refused: `EPERM`.
    Deny,
    /// Allowed.
    Allow,
}

/// The tail of the program, in order (every jump goes forward).
const TAIL: [Label; 5] = [
    Label::Clone,
    Label::Personality,
    Label::Enosys,
    Label::Deny,
    Label::Allow,
];

/// Where a jump goes: on to the next instruction, over `n` of them, or to
/// a block of the tail.
#[derive(Debug, Clone, Copy)]
enum Dest {
    Next,
    Skip(usize),
    To(Label),
}

/// An instruction whose jumps are not yet offsets.
#[derive(Debug, Clone, Copy)]
enum Op {
    Stmt(u16, u32),
    Jump(u16, u32, Dest, Dest),
}

/// The call numbers the filter looks at, sorted, each with its block.
fn listed() -> Vec<(u32, Label)> {
    let mut calls: Vec<(u32, Label)> = DENIED.iter().map(|&nr| (nr as u32, Label::Deny)).collect();
    calls.push((libc::SYS_clone as u32, Label::Clone));
    calls.push((libc::SYS_personality as u32, Label::Personality));
    calls.push((libc::SYS_clone3 as u32, Label::Enosys));
    calls.sort_unstable_by_key(|&(nr, _)| nr);
    calls.dedup_by_key(|&mut (nr, _)| nr);
    calls
}

/// The deny list as a program for architecture `arch`: a call of another
/// architecture kills the process (as `seccompiler`'s check does), then a
/// binary search finds the call's number among the listed ones.
fn deny_list(arch: u32) -> Vec<Insn> {
    let mut ops = vec![
        Op::Stmt(LD_W_ABS, ARCH),
        Op::Jump(JEQ_K, arch, Dest::Skip(1), Dest::Next),
        Op::Stmt(RET_K, libc::SECCOMP_RET_KILL_PROCESS),
        Op::Stmt(LD_W_ABS, NR),
    ];
    search(&listed(), &mut ops);
    let mut at = Vec::new();
    for label in TAIL {
        at.push((label, ops.len()));
        ops.extend(block(label));
    }
    let offset = |from: usize, dest: Dest| -> u8 {
        let to = match dest {
            Dest::Next => from + 1,
            Dest::Skip(n) => from + 1 + n,
            Dest::To(label) => at
                .iter()
                .find(|(l, _)| *l == label)
                .map(|&(_, i)| i)
                .expect("every label is laid out"),
        };
        u8::try_from(to - (from + 1)).expect("the built-in filter's jumps are short")
    };
    ops.iter()
        .enumerate()
        .map(|(i, op)| match *op {
            Op::Stmt(code, k) => Insn {
                code,
                jt: 0,
                jf: 0,
                k,
            },
            Op::Jump(code, k, jt, jf) => Insn {
                code,
                jt: offset(i, jt),
                jf: offset(i, jf),
                k,
            },
        })
        .collect()
}

/// The search over `calls` (sorted, the call number loaded): halves by
/// `>=` down to three calls, compared one by one; an unlisted call is
/// allowed.
fn search(calls: &[(u32, Label)], ops: &mut Vec<Op>) {
    if calls.len() <= 3 {
        for &(nr, label) in calls {
            ops.push(Op::Jump(JEQ_K, nr, Dest::To(label), Dest::Next));
        }
        ops.push(Op::Stmt(RET_K, libc::SECCOMP_RET_ALLOW));
        return;
    }
    let (low, high) = calls.split_at(calls.len() / 2);
    let mut left = Vec::new();
    search(low, &mut left);
    ops.push(Op::Jump(JGE_K, high[0].0, Dest::Skip(left.len()), Dest::Next));
    ops.extend(left);
    search(high, ops);
}

/// The instructions of a tail block.
fn block(label: Label) -> Vec<Op> {
    let ret = |action| vec![Op::Stmt(RET_K, action)];
    match label {
        // Any namespace flag (all in the low half) refuses.
        Label::Clone => vec![
            Op::Stmt(LD_W_ABS, ARG0_LOW),
            Op::Jump(
                JSET_K,
                NAMESPACE_FLAGS.iter().fold(0, |m, &f| m | f as u32),
                Dest::To(Label::Deny),
                Dest::To(Label::Allow),
            ),
        ],
        // The whole 64-bit argument must be 0xffffffff or 0.
        Label::Personality => vec![
            Op::Stmt(LD_W_ABS, ARG0_HIGH),
            Op::Jump(JEQ_K, 0, Dest::Next, Dest::To(Label::Deny)),
            Op::Stmt(LD_W_ABS, ARG0_LOW),
            Op::Jump(JEQ_K, 0xffff_ffff, Dest::To(Label::Allow), Dest::Next),
            Op::Jump(JEQ_K, 0, Dest::To(Label::Allow), Dest::To(Label::Deny)),
        ],
        Label::Enosys => ret(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        Label::Deny => ret(libc::SECCOMP_RET_ERRNO | libc::EPERM as u32),
        Label::Allow => ret(libc::SECCOMP_RET_ALLOW),
    }
}

/// Installs the filter in the calling process (after `no_new_privs`).
/// Only a system call: safe between `fork` and `exec`.
pub(crate) fn install(filters: &Filters) -> std::io::Result<()> {
    let prog = libc::sock_fprog {
        len: u16::try_from(filters.program.len()).expect("a short filter"),
        filter: filters.program.as_ptr().cast_mut().cast::<libc::sock_filter>(),
    };
    // SAFETY: `prog` points into a live Vec of instructions laid out as
    // `sock_filter` (`Insn` is `repr(C)` with its fields) that outlives the
    // call; the kernel copies the program.
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
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use seccompiler::{
        SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    };
    use std::collections::BTreeMap;

    /// The same deny list as `seccompiler` compiles it (a chain of
    /// comparisons), with `clone3`'s `ENOSYS` put in front: the reference
    /// the tree must agree with.
    fn reference() -> Vec<Insn> {
        let cond = |op, value| SeccompCondition::new(0, SeccompCmpArgLen::Qword, op, value).unwrap();
        let mut rules: BTreeMap<i64, Vec<SeccompRule>> = DENIED.iter().map(|&s| (s, Vec::new())).collect();
        rules.insert(
            libc::SYS_clone,
            NAMESPACE_FLAGS
                .iter()
                .map(|&f| SeccompRule::new(vec![cond(SeccompCmpOp::MaskedEq(f), f)]).unwrap())
                .collect(),
        );
        rules.insert(
            libc::SYS_personality,
            vec![
                SeccompRule::new(vec![
                    cond(SeccompCmpOp::Ne, 0xffff_ffff),
                    cond(SeccompCmpOp::Ne, 0),
                ])
                .unwrap(),
            ],
        );
        let arch = std::env::consts::ARCH.try_into().unwrap();
        let deny: seccompiler::BpfProgram = SeccompFilter::new(
            rules,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM as u32),
            arch,
        )
        .unwrap()
        .try_into()
        .unwrap();
        let insn = |f: &seccompiler::sock_filter| Insn {
            code: f.code,
            jt: f.jt,
            jf: f.jf,
            k: f.k,
        };
        // After the architecture check and the load of the call's number.
        let mut program: Vec<Insn> = deny[..4].iter().map(insn).collect();
        program.push(Insn {
            code: JEQ_K,
            jt: 0,
            jf: 1,
            k: libc::SYS_clone3 as u32,
        });
        program.push(Insn {
            code: RET_K,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
        });
        program.extend(deny[4..].iter().map(insn));
        program
    }

    /// The most instructions an allowed call may run through the tree: the
    /// architecture check, the loads, the halvings of the 52 listed
    /// numbers, the last comparisons and the return.
    const MOST_STEPS: usize = 14;

    /// Runs `program` on a call as the kernel does (the instructions these
    /// programs use); its answer and how many instructions it ran.
    fn run(program: &[Insn], arch: u32, nr: u32, arg0: u64) -> (u32, usize) {
        let word = |offset: u32| match offset {
            NR => nr,
            ARCH => arch,
            ARG0_LOW => arg0 as u32,
            ARG0_HIGH => (arg0 >> 32) as u32,
            other => panic!("a load at {other}"),
        };
        let (mut a, mut pc, mut steps) = (0u32, 0usize, 0usize);
        loop {
            let i = program[pc];
            steps += 1;
            let jump = |taken: bool| pc + 1 + usize::from(if taken { i.jt } else { i.jf });
            pc = match i.code {
                LD_W_ABS => {
                    a = word(i.k);
                    pc + 1
                }
                0x54 => {
                    a &= i.k; // BPF_ALU | BPF_AND | BPF_K
                    pc + 1
                }
                JEQ_K => jump(a == i.k),
                JGE_K => jump(a >= i.k),
                0x25 => jump(a > i.k), // BPF_JMP | BPF_JGT | BPF_K
                JSET_K => jump(a & i.k != 0),
                0x05 => pc + 1 + i.k as usize, // BPF_JMP | BPF_JA
                RET_K => return (i.k, steps),
                code => panic!("instruction {code:#x}"),
            };
        }
    }

    #[test]
    fn the_tree_answers_every_call_as_seccompilers_chain_does_in_fewer_steps() {
        let arch = AUDIT_ARCH.expect("built for this machine");
        let (tree, chain) = (Filters::build().unwrap().program, reference());
        let mut args = vec![
            0u64,
            1,
            0xffff_ffff,
            0x1_0000_0000,
            0x1_ffff_ffff,
            u64::MAX,
            0x0040_0000,
        ];
        for &f in NAMESPACE_FLAGS {
            args.extend([f, f | 0x11, f << 32, !f]);
        }
        let mut rng = fastrand::Rng::with_seed(7);
        args.extend((0..40).map(|_| rng.u64(..)));
        let numbers = (0..1100u32)
            .chain((0..1100).map(|n| 0x4000_0000 | n))
            .chain([u32::MAX, 0x7fff_ffff]);
        let mut allowed_steps = 0;
        for nr in numbers {
            for &arg0 in &args {
                for a in [arch, 0x4000_0003, 0] {
                    let (mine, steps) = run(&tree, a, nr, arg0);
                    assert_eq!(
                        mine,
                        run(&chain, a, nr, arg0).0,
                        "arch {a:#x}, call {nr}, arg {arg0:#x}"
                    );
                    if mine == libc::SECCOMP_RET_ALLOW {
                        allowed_steps = allowed_steps.max(steps);
                    }
                }
            }
        }
        assert!(
            allowed_steps <= MOST_STEPS,
            "an allowed call took {allowed_steps} steps"
        );
        assert_eq!(
            listed().len(),
            DENIED.len() + 3,
            "clone, personality and clone3 besides"
        );
        // The chain walked every comparison for an allowed call.
        let chain_steps = run(&chain, arch, libc::SYS_getppid as u32, 0).1;
        eprintln!(
            "an allowed call: at most {allowed_steps} steps through the tree, {chain_steps} through the chain"
        );
        assert!(chain_steps > 3 * MOST_STEPS);
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
        let f = Filters::build().expect("built for this machine");
        assert_eq!(
            checked_in_a_child(&f),
            0,
            "a check failed (see checked_in_a_child)"
        );
    }
}
