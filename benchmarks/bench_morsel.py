"""Honest cookies through the Morsel fixes (CVE-2026-0672, CVE-2026-3644): patched/stock.

For every interpreter named on the command line (default: the one running
this script), a child process times honest calls with the stdlib as it is
and after ``http_cookies_backport.patch(force=True)`` (the package's other
fix, CVE-2024-7592's ``_unquote``, left out through the start-up switch's
``_leave_out``: its cost is ``bench_cookies``'s), alternating the two
(``unpatch()`` between) 40 times and keeping each side's fastest batch in
CPU time, so a load that comes and goes on a shared machine weighs on
neither side. The
ratio printed is patched/stock for the same work, from one run. The
package must be importable by each interpreter (installed, or
``PYTHONPATH=src``). Usage: ``python benchmarks/bench_morsel.py [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, logging, sys, time, timeit
try:
    import http.cookies as cookies
except ImportError:
    import Cookie as cookies
import http_cookies_backport
logging.disable(logging.CRITICAL)
CPU = time.process_time if hasattr(time, "process_time") else time.clock  # 2.7: CPU time

def response():
    jar = cookies.SimpleCookie()
    jar["sid"] = "b c;d"
    jar["sid"]["path"] = "/"
    jar["sid"]["max-age"] = 3600
    return jar.output()

jar = cookies.SimpleCookie()
for key in "abc":
    jar[key] = "value-" + key
    jar[key]["path"] = "/"
    jar[key]["httponly"] = True
morsel = cookies.Morsel()

def attribute():
    morsel["path"] = "/acme"

CASES = [
    ("a Set-Cookie built and written", response),
    ("output() of 3 cookies", jar.output),
    ("js_output() of 3 cookies", jar.js_output),
    ("load() of a Cookie header", lambda: cookies.SimpleCookie('a=b; c="d e"; f=g; Path=/x')),
    ("morsel['path'] = ...", attribute),
    ("morsel.set(key, value, coded)", lambda: morsel.set("k", "v", "v")),
]

ratios = {}
for name, call in CASES:
    timer = timeit.Timer(call, timer=CPU)
    stock = patched = float("inf")
    for _ in range(40):
        http_cookies_backport.unpatch()
        stock = min(stock, timer.timeit(300))
        http_cookies_backport.patch(force=True, _leave_out=("CVE-2024-7592",))
        patched = min(patched, timer.timeit(300))
    http_cookies_backport.unpatch()
    ratios[name] = [patched / stock, stock / 300 * 1e9]
print(json.dumps({"version": sys.version.split()[0], "cases": [n for n, _ in CASES],
                  "ratios": ratios}))
"""


def measure(python):
    out = subprocess.check_output([python, "-c", CHILD])
    return json.loads(out.decode("ascii").strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        result = measure(python)
        print("%s (Python %s): patched/stock, honest input" % (python, result["version"]))
        for case in result["cases"]:
            ratio, stock = result["ratios"][case]
            print("  %-34s %.2fx   (stock %6.0f ns a call)" % (case, ratio, stock))
    return 0


if __name__ == "__main__":
    sys.exit(main())
