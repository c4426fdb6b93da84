"""Cost of ctypes_safe.patch() on foreign calls (CVE-2021-3177, bpo-42938): stock vs each mode.

Why: a fix for a repr must not slow down the calls. For each interpreter this
runs one child process that times libm's ``fabs`` (c_double), ``fabsf``
(c_float) and libc's ``labs`` (c_long) through ``argtypes``, interleaving
three states at every measurement: stock, slot mode, converter mode (best of N),
and prints the ratios patched/stock. It also times ``repr()`` of a parameter,
which slot mode moves from C to Python.

    python benchmarks/bench_ctypes.py                      # every pyenv interpreter found
    python benchmarks/bench_ctypes.py --python /usr/bin/python2.7 --rounds 9

The children import ctypes_safe from this checkout's ``src``. Converter mode
is reached as the tests reach it: by making slot mode's check fail
(``ctypes_safe._slot.locate``), which is what happens on an interpreter whose
``CArgObject`` type cannot be verified. Each state's functions are declared
in that state, so converter mode's replacements are the converters timed.
"""

from __future__ import print_function

import argparse
import glob
import json
import os
import subprocess
import sys
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "src")
STATES = ("stock", "slot", "converter")
CASES = ("fabs(-2.5)", "fabsf(-1.5)", "labs(-7)", "repr(c_double.from_param(1.5))")


def _libraries():
    import ctypes
    import ctypes.util
    return (ctypes.CDLL(ctypes.util.find_library("m")),
            ctypes.CDLL(ctypes.util.find_library("c")))


def _enter(state):
    """Unpatch, then patch into *state*; check the mode really is that one."""
    import ctypes_safe
    from ctypes_safe import _slot
    ctypes_safe.unpatch()
    if state == "stock":
        return
    locate = _slot.locate
    if state == "converter":
        def refuse():
            raise _slot.SlotCheckFailed("benchmark: converter mode")
        _slot.locate = refuse
    try:
        mode = ctypes_safe.patch(force=True).mode
    finally:
        _slot.locate = locate
    assert mode == state, (mode, state)


def _calls():
    """Fresh function objects (their converters are taken now) and the calls timed."""
    import ctypes
    libm, libc = _libraries()
    declared = {}
    for lib, name, ctype in ((libm, "fabs", ctypes.c_double), (libm, "fabsf", ctypes.c_float),
                             (libc, "labs", ctypes.c_long)):
        function = lib[name]
        function.argtypes = [ctype]
        function.restype = ctype
        declared[name] = function
    fabs, fabsf, labs = declared["fabs"], declared["fabsf"], declared["labs"]
    carg = ctypes.c_double.from_param(1.5)  # safe to repr with the stock repr, even on 2.7
    assert fabs(-2.5) == 2.5 and fabsf(-1.5) == 1.5 and labs(-7) == 7
    return dict(zip(CASES, (lambda: fabs(-2.5), lambda: fabsf(-1.5), lambda: labs(-7),
                            lambda: repr(carg))))


def measure(rounds, number, repeat):
    """Run in the child: best ns per call of each case in each state.

    The states alternate at every measurement (*repeat* x *number* calls),
    their order rotating every round, so a busy spell on the machine hits all
    of them; the minimum of many short samples finds the quiet moments.
    """
    import logging

    import ctypes_safe
    logging.getLogger("ctypes_safe").addHandler(logging.NullHandler())  # the forced fallback
    calls = {}
    for state in STATES:
        _enter(state)
        calls[state] = _calls()  # converters taken in that state, kept after unpatch()
    best = {}
    for round_ in range(rounds):
        order = STATES[round_ % 3:] + STATES[:round_ % 3]
        for case in CASES:
            for state in order:
                _enter(state)
                seconds = min(timeit.repeat(calls[state][case], number=number,
                                            repeat=repeat)) / number
                key = "%s|%s" % (case, state)
                best[key] = min(best.get(key, seconds), seconds)
    ctypes_safe.unpatch()
    return {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "vulnerable": ctypes_safe.is_vulnerable(),
        "ns": dict((key, value * 1e9) for key, value in best.items()),
    }


def interpreters():
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = sorted(glob.glob(os.path.join(root, "versions", "*", "bin", "python")),
                   key=lambda p: [int(x) for x in p.split(os.sep)[-3].split(".") if x.isdigit()])
    return found or [sys.executable]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", action="append", help="interpreter to run (repeatable)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=2000, help="calls per sample")
    parser.add_argument("--repeat", type=int, default=7, help="samples per measurement")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.rounds, args.number, args.repeat)))
        return 0
    env = dict(os.environ, PYTHONPATH=SRC)
    env.pop("CTYPES_SAFE_PATCH", None)
    header = ("python", "vuln", "case", "stock ns", "slot", "converter")
    print("%-8s %-5s %-32s %9s %7s %9s" % header)
    for python in args.python or interpreters():
        out = subprocess.check_output([python, os.path.abspath(__file__), "--child",
                                       "--rounds", str(args.rounds), "--number", str(args.number),
                                       "--repeat", str(args.repeat)], env=env)
        result = json.loads(out.decode("ascii"))
        ns = result["ns"]
        for case in CASES:
            stock = ns["%s|stock" % case]
            print("%-8s %-5s %-32s %9.0f %6.2fx %8.2fx" % (
                result["python"], "yes" if result["vulnerable"] else "no", case, stock,
                ns["%s|slot" % case] / stock, ns["%s|converter" % case] / stock))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
