"""``cpython-security-check``: both self-checks in one command, one verdict per CVE.

Why: an operator's monitoring wants one exit status for "is this interpreter,
as this environment starts it, exposed to either February 2021 CVE?". Each
package's own command stays (``python -m urllib_parse_backport``,
``python -m ctypes_safe``); this one only combines their ``status()``.
Exit 0 when both are safe, 1 when either is exposed, 2 on a usage error.
"""

from __future__ import print_function

import argparse
import json
import sys

__all__ = ["main"]

#: (package, what it fixes), in the order the verdicts are printed.
CHECKS = (
    ("urllib_parse_backport", "query strings split on ';' (web cache poisoning)"),
    ("ctypes_safe", "ctypes parameter repr overflows a stack buffer"),
)


def collect():
    """``{package: status()}`` of both packages, computed in this process."""
    found = {}
    for package, _ in CHECKS:
        found[package] = __import__(package).status()
    return found


def render(found):
    lines = []
    for package, what in CHECKS:
        info = found[package]
        verdict = "EXPOSED" if info["exposed"] else "safe"
        lines.append("%-15s %-8s %s (%s)" % (info["cve"] + ":", verdict, what, package))
    lines.append("verdict: %s" % ("EXPOSED: run the per-package command for details "
                                  "(python -m <package>)" if _exposed(found) else "safe"))
    return "\n".join(lines)


def _exposed(found):
    return any(info["exposed"] for info in found.values())


def main(argv=None):
    """Run both self-checks; return 0 (both safe), 1 (either exposed) or 2 (usage)."""
    parser = argparse.ArgumentParser(
        prog="cpython-security-check",
        description="Self-check for CVE-2021-23336 and CVE-2021-3177 in this interpreter: "
                    "exit status 0 when both are safe, 1 when either is exposed, 2 on a "
                    "usage error.")
    parser.add_argument("--json", action="store_true",
                        help="print both packages' status() in one JSON object")
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as exc:
        return exc.code
    found = collect()
    if args.json:
        document = dict(found)
        document["exposed"] = _exposed(found)
        print(json.dumps(document, indent=2, sort_keys=True, separators=(",", ": ")))
    else:
        print(render(found))
    return 1 if _exposed(found) else 0


if __name__ == "__main__":
    sys.exit(main())
