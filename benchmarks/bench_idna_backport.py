"""CPU time of the ``idna`` codec (CVE-2022-45061): honest host names, patched over stock,
and the issue's attack.

For every interpreter named on the command line (default: the one running
this script), a child process times in CPU seconds (``getrusage``, user +
system) 2,000 rounds of encoding and decoding host names an application
meets (ASCII, German, Hebrew, Arabic, their ACE forms), stock and after
``idna_backport.patch(force=True)``, alternating five times and keeping the
best of each, and prints the ratio patched/stock. Then two more children
decode ``b'xn--016c' + b'a' * 3000`` and encode a label of 3,000 Hebrew
letters, patched (and decode 192,000 ``a``) and, with ``--slow``, stock
(seconds where unfixed), and print their CPU time and the child's peak
resident memory. The package must be
importable by each interpreter (installed, or ``PYTHONPATH=src``).
Usage: ``python benchmarks/bench_idna_backport.py [--slow] [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

HONEST = r"""
import json, resource
import idna_backport

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

NAMES = [u"www.example.com", u"pyth\xf6n.org", u"b\xfccher.example.de",
         u"\u05d3\u05d5\u05d2\u05de\u05d4.\u05d8\u05e1\u05d8",
         u"\u0645\u062b\u0627\u0644.\u0625\u062e\u062a\u0628\u0627\u0631", u"m\xfcnchen.de."]
ACE = [name.encode("idna") for name in NAMES]

def cases():
    found = {}
    start = seconds()
    for _ in range(2000):
        for name in NAMES:
            name.encode("idna")
    found["encode"] = seconds() - start
    start = seconds()
    for _ in range(2000):
        for data in ACE:
            data.decode("idna")
    found["decode"] = seconds() - start
    return found

best = {"stock": {}, "patched": {}}
for _ in range(5):
    for label in ("stock", "patched"):
        if label == "patched":
            idna_backport.patch(force=True)
        for case, value in cases().items():
            best[label][case] = min(value, best[label].get(case, value))
        idna_backport.unpatch()
print(json.dumps({"vulnerable": idna_backport.is_vulnerable(), "best": best}))
"""

ATTACK = r"""
import json, resource, sys
import idna_backport

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

if sys.argv[1] == "patched":
    idna_backport.patch(force=True)
inputs = {"decode xn--016c + 3000 a": (lambda: (b"xn--016c" + b"a" * 3000).decode("idna")),
          "encode 3000 Hebrew letters": (lambda: (u"\u05d0" * 3000).encode("idna"))}
if sys.argv[1] == "patched":  # stock: 3.5 s on 3.8.18, hours where nameprep is quadratic
    inputs["decode xn--016c + 192000 a"] = lambda: (b"xn--016c" + b"a" * 192000).decode("idna")
found = {}
for case, run in sorted(inputs.items()):
    start = seconds()
    try:
        run()
    except UnicodeError:
        pass
    found[case] = seconds() - start
found["peak RSS MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
print(json.dumps(found))
"""


def _child(python, code, *args):
    out = subprocess.check_output([python, "-c", code] + list(args))
    return json.loads(out.decode("ascii"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--slow", action="store_true",
                        help="also run the attack on the stock codec (seconds where unfixed)")
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        honest = _child(python, HONEST)
        kind = "lacks gh-98433" if honest["vulnerable"] else "has gh-98433"
        print("%s (stock codec %s)" % (python, kind))
        for case in sorted(honest["best"]["stock"]):
            stock, patched = honest["best"]["stock"][case], honest["best"]["patched"][case]
            print("  honest %-8s stock %.3f s   patched %.3f s   ratio %.2f" % (
                case, stock, patched, patched / stock if stock else float("nan")))
        runs = [("patched", _child(python, ATTACK, "patched"))]
        if args.slow:
            runs.insert(0, ("stock", _child(python, ATTACK, "stock")))
        for label, found in runs:
            print("  attack, %s: %s" % (label, ", ".join(
                "%s %.3f%s" % (case, value, "" if case.startswith("peak") else " s")
                for case, value in sorted(found.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
