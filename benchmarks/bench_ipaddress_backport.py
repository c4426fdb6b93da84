"""CPU time of IPv6 parsing (gh-128840): honest addresses, patched over stock, and the
issue's 12 MB string.

For every interpreter named on the command line (default: the one running
this script; 2.7 has no ``ipaddress`` and is reported so), a child process
times in CPU seconds (``getrusage``, user + system) 3,000 rounds of parsing
IPv6 addresses an application meets (loopback, documentation prefix,
link-local with a scope on 3.9+, an IPv4-mapped address, a network, an
interface, and ``ip_address`` of each), stock and after
``ipaddress_backport.patch(force=True)``, alternating five times and keeping
the best of each, and prints the ratio patched/stock. Then two more children
give ``IPv6Address``, ``ip_address`` and ``IPv6Network`` a 12 MB string of
``'ab:'``, stock and patched, and print the CPU time and the child's peak
resident memory. The package must be importable by each interpreter
(installed, or ``PYTHONPATH=src``).
Usage: ``python benchmarks/bench_ipaddress_backport.py [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

HONEST = r"""
import json, resource, sys
try:
    import ipaddress
except ImportError:
    print(json.dumps(None)); sys.exit(0)
import ipaddress_backport

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

ADDRESSES = ["::1", "2001:db8::8a2e:370:7334", "fe80::1ff:fe23:4567:890a",
             "::ffff:192.0.2.128", "2001:0db8:85a3:0000:0000:8a2e:0370:7334"]
if hasattr(ipaddress.IPv6Address, "scope_id"):
    ADDRESSES.append("fe80::1%eth0")

def cases():
    found = {}
    start = seconds()
    for _ in range(3000):
        for text in ADDRESSES:
            ipaddress.IPv6Address(text)
            ipaddress.ip_address(text)
    found["addresses"] = seconds() - start
    start = seconds()
    for _ in range(3000):
        ipaddress.IPv6Network("2001:db8::/32")
        ipaddress.IPv6Interface("2001:db8::1/64")
        ipaddress.ip_network("2001:db8:1234::/48")
    found["networks"] = seconds() - start
    return found

best = {"stock": {}, "patched": {}}
for _ in range(5):
    for label in ("stock", "patched"):
        if label == "patched":
            ipaddress_backport.patch(force=True)
        for case, value in cases().items():
            best[label][case] = min(value, best[label].get(case, value))
        ipaddress_backport.unpatch()
print(json.dumps({"vulnerable": ipaddress_backport.is_vulnerable(), "best": best}))
"""

ATTACK = r"""
import json, resource, sys
import ipaddress
import ipaddress_backport

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

if sys.argv[1] == "patched":
    ipaddress_backport.patch(force=True)
text = "ab:" * (4 * 10 ** 6)
start = seconds()
for parse in (ipaddress.IPv6Address, ipaddress.ip_address, ipaddress.IPv6Network):
    try:
        parse(text)
    except ValueError:
        pass
print(json.dumps({"12 MB through three parsers": seconds() - start,
                  "peak RSS MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))
"""


def _child(python, code, *args):
    out = subprocess.check_output([python, "-c", code] + list(args))
    return json.loads(out.decode("ascii"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        honest = _child(python, HONEST)
        if honest is None:
            print("%s: no ipaddress module (2.7): nothing to fix" % python)
            continue
        kind = "lacks gh-128840" if honest["vulnerable"] else "has gh-128840"
        print("%s (stock parser %s)" % (python, kind))
        for case in sorted(honest["best"]["stock"]):
            stock, patched = honest["best"]["stock"][case], honest["best"]["patched"][case]
            print("  honest %-9s stock %.3f s   patched %.3f s   ratio %.2f" % (
                case, stock, patched, patched / stock if stock else float("nan")))
        for label in ("stock", "patched"):
            found = _child(python, ATTACK, label)
            print("  attack, %s: %s" % (label, ", ".join(
                "%s %.3f%s" % (case, value, "" if case.startswith("peak") else " s")
                for case, value in sorted(found.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
