#!/usr/bin/env python3
"""One context of the sandbox tests in the cgroup v2 machine.

Run by tests/vm/run-scenarios inside the VM (.ci/vm/run), once per
context: root from a system service, root from a delegated unit, an
ordinary user with a delegated cgroup, an ordinary user without one.

    scenario.py NAME MODE UID_PER_RUN

MODE is the start of the protections line the judge must report (`root
v2`, `rootless v2`); UID_PER_RUN is `yes` or `no`. In this context it
checks that:
  * the reference programs get their verdicts, with every protection
    named in the report (private root, namespaces, seccomp, Landlock,
    cgroup v2 memory and pids limits, memory.peak);
  * a memory hog is MLE (also one whose malloc fails and that says so), a
    CPU burner TLE, a fork bomb contained, nothing left running;
  * the attack suite (tests/integration/attacks, the integration test
    binary in $MAYAN_INTEGRATION_BIN) fails every attack (MAYAN_ATTACKS=0:
    not run);
  * the caller's cgroup is exactly as it was.
Prints `PASS`/`FAIL` lines and exits 1 on any failure.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[2]
JUDGE = os.environ.get("MAYAN_JUDGE_BIN", str(REPO / "target/debug/mayan-judge"))
FAILURES = []


def check(ok, what, detail=""):
    print(("PASS " if ok else "FAIL ") + what + (f": {detail}" if detail and not ok else ""), flush=True)
    if not ok:
        FAILURES.append(what)


def own_cgroup():
    line = next(l for l in open("/proc/self/cgroup") if l.startswith("0::"))
    return pathlib.Path("/sys/fs/cgroup") / line[3:].strip().lstrip("/")


def snapshot(cg):
    """What the judge must leave as it was: the type, the controllers
    enabled for children, and the children."""
    read = lambda f: (cg / f).read_text().split() if (cg / f).exists() else None
    return {
        "type": read("cgroup.type"),
        "subtree_control": read("cgroup.subtree_control"),
        "children": sorted(p.name for p in cg.iterdir() if p.is_dir()),
    }


def shared_builds():
    """The folder of programs shared between the contexts (tests/vm/run-scenarios
    passes it; the service contexts, not given it, compile their own), or
    None. The first context to grade a program compiles it in its sandbox;
    the attack suite's compile-time attacks get a nonce, so they are
    compiled in every context that runs the suite."""
    builds = os.environ.get("MAYAN_ATTACK_BUILDS")
    return pathlib.Path(builds) if builds else None


def copy_programs(src, dst):
    """Copies the compiled programs of `src` (files named by a cache key) that
    `dst` lacks, each whole or not at all (a temporary name, then a rename),
    executable as the judge leaves them (0755)."""
    for f in src.iterdir() if src.is_dir() else []:
        to = dst / f.name
        if len(f.name) != 64 or not f.is_file() or to.exists():
            continue
        part = dst / f".{f.name}.{os.getpid()}"
        try:
            part.write_bytes(f.read_bytes())
            part.chmod(0o755)
            part.rename(to)
        except OSError:
            part.unlink(missing_ok=True)


def grade(work, name, subs, tests, jobs=2, problem=REPO / "problems/mayan"):
    out = work / f"{name}.json"
    cmd = [JUDGE, "grade", "--quiet", "--jobs", str(jobs), "--tests", tests, "--json", str(out),
           "--problem", str(problem), *map(str, subs)]
    env = None
    builds = shared_builds()
    if builds:
        # A cache of this context's own (0700, as the judge makes it) that
        # starts with what an earlier context compiled: under emulation the
        # references' and hogs' compilations took some 20 s per context.
        cache = work / "cache"
        cache.mkdir(mode=0o700, exist_ok=True)
        copy_programs(builds, cache)
        env = dict(os.environ, MAYAN_JUDGE_CACHE=str(cache))
    started = time.monotonic()
    p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=1800)
    if builds:
        copy_programs(cache, builds)
    print(f"     ({name}: exit {p.returncode} in {time.monotonic() - started:.0f} s)", flush=True)
    if p.returncode not in (0, 1) or not out.exists():
        check(False, f"{name}: the judge graded", f"exit {p.returncode}; stderr: {p.stderr[-2000:]}")
        return None
    return json.loads(out.read_text())


def verdicts(report, file):
    """The verdicts of `file` on each test, and the reasons (for messages)."""
    for s in report["submissions"]:
        if pathlib.Path(s["submission"]).name == file:
            tests = s.get("tests") or []
            reasons = "; ".join(f"{t.get('verdict')} {t.get('reason')}" for t in tests)
            return [t.get("verdict") for t in tests], reasons or str(s.get("compile_error") or s.get("judge_error"))
    return [], "not in the report"


def check_protections(report, mode, uid_per_run):
    line = report.get("protections", "")
    print(f"     protections: {line}", flush=True)
    check(line.startswith(mode + ":"), f"the report names the mode `{mode}`", line)
    for part in ["private root", "mount/pid/net/ipc/uts namespaces", "seccomp", "landlock",
                 "cgroup v2 (memory, pids", "memory.peak"]:
        check(part in line, f"the report names `{part}`", line)
    check(("uid per run" in line) == uid_per_run, f"uid per run is {'on' if uid_per_run else 'off'}", line)
    check("NOT limited" not in line, "the process count is limited", line)


def check_references(work, mode, uid_per_run):
    ref = REPO / "reference/mayan"
    want = {
        "solution.c": "AC", "solution.py": "AC",
        "no_gravity_cascade.cpp": "WA", "six_rows.py": "RE", "brute.py": "TLE",
    }
    subs = [ref / "accepted/solution.c", ref / "accepted/solution.py",
            ref / "wrong_answer/no_gravity_cascade.cpp", ref / "run_time_error/six_rows.py",
            ref / "time_limit_exceeded/brute.py"]
    # secret/1-6: on the emulated CPU (some 25 times slower for Python) the
    # accepted programs stay far below the limit, and brute.py still
    # exceeds it (it takes 1.4 s of 3 s on secret/4 on a real CPU).
    tests = "secret/[1-6]"
    if os.environ.get("MAYAN_REFERENCES") == "c":
        # The service contexts (tests/vm/service): the same judge code as
        # the contexts above grades the five; one shows the protections.
        want, subs, tests = {"solution.c": "AC"}, subs[:1], "secret/[12]"
    report = grade(work, "references", subs, tests)
    if report is None:
        return
    check_protections(report, mode, uid_per_run)
    for file, verdict in want.items():
        got, reasons = verdicts(report, file)
        ok = all(v == "AC" for v in got) if verdict == "AC" else verdict in got
        check(bool(got) and ok, f"reference {file} gets {verdict}", reasons)


def limited_package(work, time_ms):
    """The bundled package with a CPU limit of `time_ms`, its tests shared."""
    root = work / f"limit-{time_ms}"
    (root / "problems/mayan").mkdir(parents=True, exist_ok=True)
    toml = (REPO / "problems/mayan/problem.toml").read_text()
    (root / "problems/mayan/problem.toml").write_text(toml.replace("time_ms = 3000", f"time_ms = {time_ms}"))
    if not (root / "testdata").exists():
        (root / "testdata").symlink_to(REPO / "testdata")
    return root / "problems/mayan"


def check_hogs(work):
    progs = REPO / "tests/vm/programs"
    # The memory hogs get a CPU limit far from what their faults cost: on an
    # emulated CPU of a loaded host, touching 128 MiB took over 3 s of the
    # guest's CPU time, and the verdict this checks is MLE, not the speed.
    roomy = limited_package(work, 20000)
    # The burners get a limit of 1 s, not the problem's 3 s: they burn
    # whatever the limit, and each TLE costs its limit (one slot, one after
    # the other, in every context).
    tight = limited_package(work, 1000)
    groups = [({"memory_hog.c": {"MLE"}, "malloc_fails.c": {"MLE"}}, roomy),
              ({"cpu_burner.c": {"TLE"}, "fork_bomb.c": {"TLE", "MLE"}}, tight)]
    for want, problem in groups:
        # One slot: each hog alone, as the verdicts it checks assume (with one
        # pool of slots across submissions, two hogs side by side on the
        # emulated CPU made the memory one spend 3 s of CPU in reclaim).
        report = grade(work, "hogs", [progs / f for f in want], "secret/1", jobs=1, problem=problem)
        if report is None:
            return
        for file, allowed in want.items():
            got, reasons = verdicts(report, file)
            check(len(got) == 1 and got[0] in allowed, f"{file} is {'/'.join(sorted(allowed))}", reasons)
    time.sleep(1)
    check(not judge_processes(), "nothing is left running after grading", f"{judge_processes()}")


def judge_processes():
    """Processes still in a cgroup of a judge (its scope, its runs)."""
    left = []
    for proc in pathlib.Path("/proc").glob("[0-9]*"):
        try:
            cg = (proc / "cgroup").read_text()
            comm = (proc / "comm").read_text().strip()
        except OSError:
            continue
        if "mayan-judge" in cg:
            left.append(f"{proc.name} {comm} in {cg.strip()}")
    return left


def cpu_times():
    """The guest's CPU time so far, in ticks: (busy, all), from /proc/stat."""
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields) - idle, sum(fields)


def check_attacks():
    binary = os.environ.get("MAYAN_INTEGRATION_BIN")
    if not binary:
        check(False, "the attack suite ran", "MAYAN_INTEGRATION_BIN is not set")
        return
    # The CPU is emulated: a hung judge is one that takes 15 minutes. The
    # two large batches share what their judge compiled with the same
    # batches of the other contexts and of the host's `cargo test` (the
    # same compiler, the host's): their runtime attacks and control are
    # compiled once per CI run, not once per context
    # (tests/integration/attacks.rs; the folder: tests/vm/run-scenarios).
    env = dict(os.environ, MAYAN_JUDGE_REQUIRE_TOOLS="1", MAYAN_TEST_HANG_SECS="900")
    started = time.monotonic()
    busy0, all0 = cpu_times()
    p = subprocess.run([binary, "attacks::", "--test-threads=2"], cwd=REPO, env=env,
                       capture_output=True, text=True, timeout=2400)
    busy1, all1 = cpu_times()
    # How busy the vCPUs were: where it is far below 100%, the suite waits
    # more than it computes (more test threads could then overlap the waits).
    busy = 100 * (busy1 - busy0) / max(1, all1 - all0)
    print(f"     (attack suite: exit {p.returncode} in {time.monotonic() - started:.0f} s, "
          f"the vCPUs {busy:.0f}% busy)", flush=True)
    summary = [l for l in p.stdout.splitlines() if l.startswith("test result") or " ... " in l]
    for l in summary:
        print(f"     {l}", flush=True)
    check(p.returncode == 0, "the attack suite fails every attack", (p.stdout + p.stderr)[-6000:])


def main():
    name, mode, uid_per_run = sys.argv[1], sys.argv[2], sys.argv[3] == "yes"
    print(f"== {name}: uid {os.getuid()}, cgroup {own_cgroup()}", flush=True)
    cg = own_cgroup()
    before = snapshot(cg)
    with tempfile.TemporaryDirectory(prefix="mj-vm-") as d:
        work = pathlib.Path(d)
        os.chmod(work, 0o755)
        doctor = subprocess.run([JUDGE, "doctor"], capture_output=True, text=True)
        print("     doctor:\n" + "\n".join("       " + l for l in doctor.stdout.splitlines()), flush=True)
        check_references(work, mode, uid_per_run)
        check_hogs(work)
        if os.environ.get("MAYAN_ATTACKS", "1") == "1":
            check_attacks()
    after = snapshot(cg)
    check(before == after, "the caller's cgroup is exactly as it was", f"before {before}, after {after}")
    print(f"== {name}: {'ok' if not FAILURES else f'{len(FAILURES)} failure(s)'}", flush=True)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
