//! `mayan-judge doctor` on this machine: whatever the machine, every line is
//! a level, a name and what was found, the JSON says the same, and the exit
//! code is 0 exactly when nothing FAILs.

use crate::util::judge_within;

/// `doctor` with `args`: its exit code and standard output.
fn doctor(args: &[&str]) -> (i32, String) {
    let out = judge_within(60).arg("doctor").args(args).output().unwrap();
    let code = out.status.code().expect("exited");
    (code, String::from_utf8(out.stdout).unwrap())
}

#[test]
fn doctor_prints_one_line_per_check_led_by_its_level() {
    let (code, out) = doctor(&[]);
    assert!(!out.is_empty());
    for line in out.lines() {
        let (level, rest) = line.split_at(4);
        assert!(["PASS", "WARN", "FAIL"].contains(&level), "{line}");
        assert!(rest.starts_with("  ") && rest.len() > 2, "{line}");
        assert_eq!(
            level == "PASS",
            !line.contains("; fix: "),
            "only a WARN or FAIL has a fix: {line}"
        );
    }
    assert!(!out.contains('\x1b'), "no colour into a pipe");
    let failed = out.lines().any(|l| l.starts_with("FAIL"));
    assert_eq!(code, if failed { 1 } else { 0 }, "{out}");
}

#[test]
fn doctor_json_is_the_checks_and_agrees_with_the_exit_code() {
    let (code, out) = doctor(&["--json"]);
    let checks: Vec<serde_json::Value> = serde_json::from_str(&out).expect("JSON array");
    assert!(!checks.is_empty());
    for c in &checks {
        assert!(c["name"].is_string() && c["found"].is_string(), "{c}");
        let level = c["level"].as_str().expect("level");
        assert!(["PASS", "WARN", "FAIL"].contains(&level), "{c}");
        assert_eq!(c["fix"].is_null(), level == "PASS", "{c}");
    }
    let failed = checks.iter().any(|c| c["level"] == "FAIL");
    assert_eq!(code, if failed { 1 } else { 0 }, "{out}");
}

#[test]
fn doctor_text_and_json_name_the_same_checks_ending_with_the_sandbox() {
    let (_, text) = doctor(&[]);
    let (_, json) = doctor(&["--json"]);
    let checks: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    let names: Vec<&str> = checks.iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), text.lines().count());
    for (name, line) in names.iter().zip(text.lines()) {
        assert!(line[6..].starts_with(name), "{line} is not {name}");
    }
    assert_eq!(names.last(), Some(&"sandbox"));
}

#[test]
fn doctor_help_gives_its_exit_codes() {
    let out = judge_within(60).args(["doctor", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("Exit codes: 0 no check FAILs (the sandbox has every protection it needs), 1 some check FAILs, 2 error."),
        "{help}"
    );
}

/// On this machine (cgroup v1) an ordinary user's judge is rootless, and
/// gets no cgroup: `doctor` says so, with the fix.
#[test]
fn doctor_fails_the_sandbox_for_a_judge_that_is_not_root() {
    let out = if nix::unistd::geteuid().is_root() {
        as_nobody(&["doctor", "--json"])
    } else {
        judge_within(60).args(["doctor", "--json"]).output().unwrap()
    };
    let checks: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let sandbox = checks
        .iter()
        .find(|c| c["name"] == "sandbox")
        .expect("a sandbox check");
    assert_eq!(sandbox["level"], "FAIL", "{sandbox}");
    assert!(
        sandbox["found"]
            .as_str()
            .unwrap()
            .contains("memory and process limits of the whole run"),
        "{sandbox}"
    );
    let named = |name: &str| {
        checks
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("no {name} check"))
    };
    if nix::unistd::geteuid().is_root() {
        assert_eq!(
            named("mode")["found"],
            "rootless: an ordinary user in a user namespace of its own"
        );
        let delegation = named("cgroup delegation");
        assert_eq!(delegation["level"], "FAIL", "{delegation}");
        assert!(
            delegation["fix"]
                .as_str()
                .unwrap()
                .contains("systemd.unified_cgroup_hierarchy=1"),
            "{delegation}"
        );
        assert_eq!(named("uid per run")["level"], "WARN");
    }
    assert_eq!(out.status.code(), Some(1));
}

/// The judge run as `nobody` (uid and gid 65534), from a copy that user can
/// read wherever the checkout is.
fn as_nobody(args: &[&str]) -> std::process::Output {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let copy = dir.path().join("mayan-judge");
    std::fs::copy(assert_cmd::cargo::cargo_bin!("mayan-judge"), &copy).unwrap();
    std::process::Command::new(&copy)
        .args(args)
        .current_dir(dir.path())
        .uid(65534)
        .gid(65534)
        .output()
        .unwrap()
}

#[test]
fn doctor_prints_the_cores_the_judge_may_use() {
    let (_, json) = doctor(&["--json"]);
    let checks: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    let cores = checks
        .iter()
        .find(|c| c["name"] == "judging cores")
        .expect("a `judging cores` check");
    let found = cores["found"].as_str().unwrap();
    let n: usize = found.split(' ').next().unwrap().parse().expect("a number first");
    let online = std::thread::available_parallelism().unwrap().get();
    assert!((1..=online).contains(&n), "{found}");
    assert!(
        found.contains("CPU affinity") && found.contains("cpu.max"),
        "{found}"
    );
}
