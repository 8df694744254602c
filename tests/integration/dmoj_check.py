"""Calls the DMOJ export's checker module in-process, as DMOJ's judge does,
on the cases of tests/integration/export.rs's agreement test:

    python3 dmoj_check.py SMALLEST_MODULE ANY_MODULE CASES_DIR COUNT

Case i is CASES_DIR/i.in, i.ans, i.out (the program's output) and i.flag
(`any` or `smallest`: which module judges it). Prints one verdict a line, AC,
WA, PE or FAIL, after checking that each result keeps DMOJ's contract: AC
with the test's points and no feedback; WA and PE with 0 points, the feedback
`WA: why` or `PE: why`, and the same as extended feedback when longer than
the 50 characters DMOJ's site keeps; FAIL, a judge error, as InternalError.
Exits 2 on a broken contract.

Under DMOJ's Python (the dmoj package installed) the modules are loaded with
DMOJ's own loader and return its CheckerResult; elsewhere with the same exec
into a fresh module, and stand-ins for dmoj.result and dmoj.error.
"""

import os
import sys
import types

POINTS = 7

try:
    from dmoj.error import InternalError
    from dmoj.utils.module import load_module_from_file
except ImportError:

    class InternalError(Exception):
        pass

    class CheckerResult:
        def __init__(self, passed, points, feedback=None, extended_feedback=None):
            self.passed, self.points = passed, points
            self.feedback, self.extended_feedback = feedback, extended_feedback

    for name, attrs in [("dmoj", {}), ("dmoj.error", {"InternalError": InternalError}),
                        ("dmoj.result", {"CheckerResult": CheckerResult})]:
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module

    def load_module_from_file(filename):
        # What dmoj.utils.module does: a module named after the file, not
        # entered in sys.modules, its code run in it.
        module = types.ModuleType(os.path.splitext(os.path.basename(filename))[0])
        module.__file__ = os.path.abspath(filename)
        with open(filename) as f:
            exec(compile(f.read(), module.__file__, "exec"), module.__dict__)
        return module


def verdict(checker, inp, ans, out):
    """The verdict check() gives, after checking its result's contract."""
    try:
        result = checker.check(out, ans, judge_input=inp, point_value=POINTS, case_position=1, batch=None)
    except InternalError as e:
        if "judge error" not in str(e):
            raise AssertionError("InternalError without the reason: %s" % e)
        return "FAIL"
    if result.passed:
        if (result.points, result.feedback, result.extended_feedback) != (POINTS, None, None):
            raise AssertionError("AC: %r %r %r" % (result.points, result.feedback, result.extended_feedback))
        return "AC"
    word, _, why = (result.feedback or "").partition(": ")
    extended = result.feedback if len(result.feedback) > 50 else None
    if result.points != 0 or word not in ("WA", "PE") or not why or result.extended_feedback != extended:
        raise AssertionError("not AC: %r %r %r" % (result.points, result.feedback, result.extended_feedback))
    return word


def main():
    smallest, any_, cases, count = sys.argv[1:]
    checkers = {"smallest": load_module_from_file(smallest), "any": load_module_from_file(any_)}
    lines = []
    for i in range(int(count)):

        def read(ext):
            with open(os.path.join(cases, "%d.%s" % (i, ext)), "rb") as f:
                return f.read()

        checker = checkers[read("flag").decode()]
        try:
            lines.append(verdict(checker, read("in"), read("ans"), read("out")))
        except AssertionError as e:
            sys.stderr.write("case %d: %s\n" % (i, e))
            return 2
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
