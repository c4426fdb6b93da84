"""CPU time of cookie-value unquoting (CVE-2024-7592): the stock function and the fix.

For every interpreter named on the command line (default: the one running
this script), a child process times, in CPU seconds (``getrusage``, user +
system), ``_unquote`` of quoted values made of escaped backslashes (16 KB,
then 160 KB) and ``SimpleCookie.load`` of a 40 KB cookie, first with the
stdlib as it is, then after ``http_cookies_backport.patch(force=True)``.
The stock function's 160 KB case takes about half a minute on an unfixed
interpreter: it runs only with ``--slow``. The package must be importable by
each interpreter (installed, or ``PYTHONPATH=src``).
Usage: ``python benchmarks/bench_cookies.py [--slow] [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys
try:
    import http.cookies as cookies
except ImportError:
    import Cookie as cookies
import http_cookies_backport

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def cpu(function, *args):
    start = seconds()
    function(*args)
    return seconds() - start

def value(size):
    return '"' + "\\\\" * (size // 2) + '"'

def cases(slow, label):
    found = {}
    found["_unquote 16 KB"] = cpu(cookies._unquote, value(16 * 1024))
    if slow or label == "patched":
        found["_unquote 160 KB"] = cpu(cookies._unquote, value(160 * 1024))
    found["SimpleCookie.load 40 KB"] = cpu(cookies.SimpleCookie().load, "a=" + value(40 * 1024))
    return found

slow = sys.argv[1] == "slow"
result = {"vulnerable": http_cookies_backport.is_vulnerable(), "stock": cases(slow, "stock")}
http_cookies_backport.patch(force=True)
result["patched"] = cases(slow, "patched")
print(json.dumps(result))
"""


def measure(python, slow):
    out = subprocess.check_output([python, "-c", CHILD, "slow" if slow else "quick"])
    return json.loads(out.decode("ascii"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slow", action="store_true",
                        help="also time the stock function on 160 KB (about 35 s where unfixed)")
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        result = measure(python, args.slow)
        kind = "quadratic" if result["vulnerable"] else "already the fix"
        print("%s (stock function %s)" % (python, kind))
        for case in sorted(result["patched"]):
            stock = result["stock"].get(case)
            print("  %-26s stock %8s   patched %.3f s" % (
                case, "%.3f s" % stock if stock is not None else "(--slow)",
                result["patched"][case]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
