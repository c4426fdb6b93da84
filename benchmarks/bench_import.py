"""What importing each package costs on top of the stdlib module it stands beside.

For every interpreter named on the command line (default: the one running
this script), in a fresh process each time, with bytecode compiled first:
``python -X importtime -c "import urllib.parse; import urllib_parse_backport"``
and ``... "import ctypes; import ctypes_safe"``; the cumulative time of the
package's own line is kept, best of N runs (``-X importtime`` is 3.7+; older
interpreters are timed with ``time.perf_counter`` around the import instead).
The packages must be installed for each interpreter (a tox environment's
python will do). Usage: ``python benchmarks/bench_import.py [-n 9] [python ...]``.

Each import is timed twice: as an application sees it, and with the garbage
collector disabled. The difference is a collection that the interpreter's
allocation counter happens to start during the import (a full one costs 1-2 ms
at start-up); it would otherwise start a few allocations later, in the app.
"""

from __future__ import print_function

import argparse
import subprocess
import sys

PAIRS = (("urllib.parse", "urllib_parse_backport"), ("ctypes", "ctypes_safe"))

_COMPILE = ("import compileall, os, urllib_parse_backport, ctypes_safe\n"
            "for m in (urllib_parse_backport, ctypes_safe):\n"
            "    compileall.compile_dir(os.path.dirname(m.__file__), quiet=1)\n")

_TIMED = ("import gc, sys, time\n"
          "if sys.argv[3] == 'off': gc.disable()\n"
          "__import__(sys.argv[1].replace('urllib.parse', 'urlparse')"
          " if sys.version_info[0] == 2 else sys.argv[1])\n"
          "t = getattr(time, 'perf_counter', time.time)\n"
          "start = t(); __import__(sys.argv[2]); print(int((t() - start) * 1e6))\n")


def once(python, base, package, gc):
    """Microseconds to import *package* after *base*, in a fresh *python*;
    *gc* is ``"on"`` or ``"off"`` (the collector disabled before the imports)."""
    version = subprocess.check_output(
        [python, "-c", "import sys; print(sys.version_info[:2] >= (3, 7))"])
    if version.strip() == b"True":
        out = subprocess.check_output(
            [python, "-X", "importtime", "-c",
             "import gc%s; import %s; import %s" % (
                 "; gc.disable()" if gc == "off" else "", base, package)],
            stderr=subprocess.STDOUT).decode("utf-8")
        for line in out.splitlines():
            if line.rstrip().endswith("| " + package):
                return int(line.split("|")[1])
        raise RuntimeError("no importtime line for %s:\n%s" % (package, out))
    return int(subprocess.check_output([python, "-c", _TIMED, base, package, gc]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=9, help="runs per measurement (best kept)")
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    print("%-36s %-42s %s" % ("python", "import", "best of %d (ms): gc on, gc off" % args.n))
    for python in args.pythons:
        subprocess.check_call([python, "-c", _COMPILE])
        for base, package in PAIRS:
            best = [min(once(python, base, package, gc) for _ in range(args.n))
                    for gc in ("on", "off")]
            label = package + " after " + base
            print("%-36s %-42s %.2f  %.2f" % (python, label, best[0] / 1e3, best[1] / 1e3))
    return 0


if __name__ == "__main__":
    sys.exit(main())
