//! An ordinary user's judge (no root, no set-uid helper): it enters a user
//! namespace of its own and builds every run's private root there, as root
//! does. This machine (root, cgroup v1) gives an ordinary user no
//! delegated cgroup, so these tests run the real binary as `nobody`: it
//! must refuse without `--trusted`, naming what is missing and the command
//! that gives it, and with `--trusted` isolate runs all the same, every
//! capability dropped. The cgroup v2 machine (tests/vm/, in `.ci/run`)
//! runs the same mode with cgroups, and the attack suite, as two users.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const JUDGE: &str = env!("CARGO_BIN_EXE_mayan-judge");
const NOBODY: u32 = 65534;

/// A folder `nobody` owns, holding `files`.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::Builder::new().prefix("mj-rootless-").tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    for e in std::fs::read_dir(dir.path()).unwrap().flatten() {
        nix::unistd::chown(&e.path(), Some(NOBODY.into()), Some(NOBODY.into())).unwrap();
    }
    nix::unistd::chown(dir.path(), Some(NOBODY.into()), Some(NOBODY.into())).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// `mayan-judge grade ARGS` as `nobody`, in `dir`.
fn grade_as_nobody(dir: &Path, args: &[&str]) -> Output {
    Command::new(JUDGE)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir)
        .arg("grade")
        .args(["--problem", &repo().join("problems/mayan").to_string_lossy()])
        .args(args)
        .uid(NOBODY)
        .gid(NOBODY)
        .output()
        .unwrap()
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Root and gcc are needed (to become `nobody`, to compile).
fn ready() -> bool {
    if !nix::unistd::geteuid().is_root() {
        crate::util::skip("needs root, to run the judge as nobody");
        return false;
    }
    crate::util::have("gcc")
}

#[test]
fn an_ordinary_user_without_delegated_cgroups_is_refused_with_the_fix() {
    if !ready() {
        return;
    }
    let dir = folder(&[("sol.c", "int main(void){return 0;}\n")]);
    let out = grade_as_nobody(dir.path(), &["--tests", "secret/1", "sol.c"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("memory and process limits of the whole run"),
        "{stderr}"
    );
    assert!(
        stderr.contains("fix: boot with systemd.unified_cgroup_hierarchy=1"),
        "{stderr}"
    );
    assert!(stderr.contains("mayan-judge doctor"), "{stderr}");
}

/// A program that reports what it may do: exit 42 if it holds any
/// capability, may read a host file, or may make a namespace.
const PROBE: &str = r#"
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if ((!strncmp(line, "CapEff:", 7) || !strncmp(line, "CapPrm:", 7) || !strncmp(line, "CapBnd:", 7))
            && strstr(line, "0000000000000000") == NULL) {
            fprintf(stderr, "capability left: %s", line);
            return 42;
        }
    if (open("/etc/passwd", O_RDONLY) >= 0) { fprintf(stderr, "read /etc/passwd\n"); return 42; }
    if (open("@SECRET@", O_RDONLY) >= 0) { fprintf(stderr, "read the user's own file\n"); return 42; }
    if (unshare(CLONE_NEWUSER) == 0 || unshare(CLONE_NEWNS) == 0) { fprintf(stderr, "unshare\n"); return 42; }
    if (setuid(0) == 0 && access("/proc/1/environ", R_OK) == 0) { fprintf(stderr, "read the init's environment\n"); return 42; }
    printf("-1\n");
    return 0;
}
"#;

#[test]
fn with_trusted_an_ordinary_users_runs_are_isolated_in_its_user_namespace() {
    if !ready() {
        return;
    }
    // A file of the user's own, beside the submission: reachable by uid
    // and permissions, not by the run's root.
    let secret = "secret.txt";
    let dir = folder(&[(secret, "the user's own\n")]);
    let probe = PROBE.replace("@SECRET@", &dir.path().join(secret).to_string_lossy());
    std::fs::write(dir.path().join("probe.c"), probe).unwrap();
    std::fs::copy(
        repo().join("reference/mayan/accepted/solution.c"),
        dir.path().join("solution.c"),
    )
    .unwrap();
    let out = grade_as_nobody(
        dir.path(),
        &[
            "--trusted",
            "--quiet",
            "--tests",
            "secret/[12]",
            "--json",
            "r.json",
            "solution.c",
            "probe.c",
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("r.json")).unwrap_or_default())
            .unwrap_or_else(|e| panic!("no report ({e}); stderr: {stderr}"));
    let line = report["protections"].as_str().unwrap_or_default();
    assert!(
        line.starts_with("rootless: user namespace + private root (pivot_root"),
        "{line}"
    );
    assert!(line.contains("one uid, capabilities dropped"), "{line}");
    assert!(line.contains("seccomp deny list"), "{line}");
    let verdicts = |file: &str| -> Vec<(String, String)> {
        report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["submission"].as_str().is_some_and(|p| p.ends_with(file)))
            .unwrap_or_else(|| panic!("{file} not graded: {report}"))["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["verdict"].as_str().unwrap().to_string(),
                    t["reason"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    // The control is accepted: runs work.
    assert!(
        verdicts("solution.c").iter().all(|(v, _)| v == "AC"),
        "{:?}",
        verdicts("solution.c")
    );
    // The probe got nothing: it answers -1 (right or wrong), never code 42.
    for (v, reason) in verdicts("probe.c") {
        assert!(v == "WA" || v == "AC", "probe.c: {v} {reason}");
    }
}
