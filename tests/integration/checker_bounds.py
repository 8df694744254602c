"""What an exported checker costs on one output: its verdict, its time and
its peak memory, as one JSON line.

    python3 checker_bounds.py module CHECKER_PY INPUT ANSWER OUTPUT
    python3 checker_bounds.py process STDIN CMD [ARG...]

`module` loads CHECKER_PY as DMOJ does (with dmoj_check.py's loader) and
calls its check() on the files' bytes, the output already in memory as
DMOJ holds it: {"verdict": AC/WA/PE/FAIL, "seconds", "growth_kib": how
much check() grows this process's peak resident memory}. `process` runs CMD with the
file STDIN as its standard input: {"code", "seconds", "max_rss_kib": the
process's peak resident memory (wait4), "stderr": its first 300 bytes}.
"""

import json
import os
import subprocess
import sys
import resource
import time

import dmoj_check


def module(checker_py, input_path, answer_path, output_path):
    checker = dmoj_check.load_module_from_file(checker_py)
    files = []
    for path in (input_path, answer_path, output_path):
        with open(path, "rb") as f:
            files.append(f.read())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    word = dmoj_check.verdict(checker, *files)
    seconds = time.perf_counter() - start
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    return {"verdict": word, "seconds": seconds, "growth_kib": growth}


def process(stdin_path, cmd):
    with open(stdin_path, "rb") as stdin:
        start = time.perf_counter()
        child = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        stderr = child.stderr.read(300)
        child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
    return {
        "code": os.waitstatus_to_exitcode(status),
        "seconds": seconds,
        "max_rss_kib": usage.ru_maxrss,
        "stderr": stderr.decode("utf-8", "replace"),
    }


def main():
    way, args = sys.argv[1], sys.argv[2:]
    result = module(*args) if way == "module" else process(args[0], args[1:])
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
