"""Cost of the ctypes_safe shim (CVE-2021-3177, bpo-42938): stock vs patched, per interpreter.

Why: a patched ``from_param`` sits on every foreign call that uses argtypes.
For each interpreter this runs one child process that alternates stock and
patched rounds (interleaved, best of N) and prints the ratios patched/stock.

    python benchmarks/bench_ctypes.py                      # every pyenv interpreter found
    python benchmarks/bench_ctypes.py --python /usr/bin/python2.7 --rounds 9

The children import ctypes_safe from this checkout's ``src``.
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


def measure(rounds, number):
    """Run in the child: best time per call (ns) of each case, stock and patched, interleaved."""
    import ctypes
    import ctypes.util

    import ctypes_safe

    libm = ctypes.CDLL(None)
    try:
        libm.fabs
    except AttributeError:
        libm = ctypes.CDLL(ctypes.util.find_library("m"))

    def fabs():
        function = libm["fabs"]  # fresh: converters are taken when argtypes is set
        function.argtypes = [ctypes.c_double]
        function.restype = ctypes.c_double
        return function

    def cases():
        call = fabs()
        from_param = ctypes.c_double.from_param
        void_p = ctypes.c_void_p.from_param
        return {
            "fabs(-2.5), argtypes=[c_double]": lambda: call(-2.5),
            "fabs(-1e300), argtypes=[c_double]": lambda: call(-1e300),
            "c_double.from_param(2.5)": lambda: from_param(2.5),
            "c_double.from_param(3) (int)": lambda: from_param(3),
            "c_void_p.from_param(4096)": lambda: void_p(4096),
        }

    best = {}
    for _ in range(rounds):
        for state in ("stock", "patched"):
            if state == "patched":
                ctypes_safe.patch(force=True)
            else:
                ctypes_safe.unpatch()
            for name, case in cases().items():
                seconds = min(timeit.repeat(case, number=number, repeat=3)) / number
                key = (name, state)
                best[key] = min(best.get(key, seconds), seconds)
    ctypes_safe.unpatch()
    stock_safe = min(timeit.repeat(lambda: ctypes_safe.from_param(ctypes.c_double, 2.5),
                                   number=number, repeat=3 * rounds)) / number
    names = sorted(set(name for name, _ in best))
    rows = [(n, best[(n, "stock")] * 1e9, best[(n, "patched")] * 1e9) for n in names]
    rows.append(("ctypes_safe.from_param(c_double, 2.5)",
                 best[("c_double.from_param(2.5)", "stock")] * 1e9, stock_safe * 1e9))
    return {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "vulnerable": ctypes_safe.is_vulnerable(),
        "rows": rows,
    }


def interpreters():
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = sorted(glob.glob(os.path.join(root, "versions", "*", "bin", "python")),
                   key=lambda p: [int(x) for x in p.split(os.sep)[-3].split(".") if x.isdigit()])
    return found or [sys.executable]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--python", action="append", help="interpreter to run (repeatable)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.rounds, args.number)))
        return 0
    env = dict(os.environ, PYTHONPATH=SRC)
    header = ("python", "vuln", "case", "stock ns", "patched", "ratio")
    print("%-8s %-5s %-36s %10s %10s %6s" % header)
    for python in args.python or interpreters():
        out = subprocess.check_output([python, os.path.abspath(__file__), "--child",
                                       "--rounds", str(args.rounds), "--number", str(args.number)],
                                      env=env)
        result = json.loads(out.decode("ascii"))
        for name, stock, patched in result["rows"]:
            print("%-8s %-5s %-36s %10.0f %10.0f %5.2fx" % (
                result["python"], "yes" if result["vulnerable"] else "no", name, stock, patched,
                patched / stock))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
