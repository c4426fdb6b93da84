"""``cpython-security-check``: both self-checks in one command, one verdict per CVE.

Why: an operator's monitoring wants one exit status for "is this interpreter,
as this environment starts it, exposed to either February 2021 CVE?". Each
package's own command stays (``python -m urllib_parse_backport``,
``python -m ctypes_safe``); this one only combines their ``status()``.
Exit 0 when both are safe, 1 when either is exposed, 2 on a usage error.
"""

import sys

from ._selfcheck import main as run_selfcheck

__all__ = ["main"]

#: (package, what it fixes), in the order the verdicts are printed.
CHECKS = (
    ("urllib_parse_backport", "query strings split on ';' (web cache poisoning)"),
    ("ctypes_safe", "ctypes parameter repr overflows a stack buffer"),
)


def collect():
    """``{package: status()}`` of both packages, computed in this process, and
    ``"exposed"``: whether either is."""
    found = {}
    for package, _ in CHECKS:
        found[package] = __import__(package).status()
    found["exposed"] = any(found[package]["exposed"] for package, _ in CHECKS)
    return found


def render(found):
    lines = []
    for package, what in CHECKS:
        info = found[package]
        verdict = "EXPOSED" if info["exposed"] else "safe"
        lines.append("%-15s %-8s %s (%s)" % (info["cve"] + ":", verdict, what, package))
    lines.append("verdict: %s" % ("EXPOSED: run the per-package command for details "
                                  "(python -m <package>)" if found["exposed"] else "safe"))
    return "\n".join(lines)


def main(argv=None):
    """Run both self-checks; return 0 (both safe), 1 (either exposed) or 2 (usage)."""
    return run_selfcheck(
        argv, prog="cpython-security-check",
        description="Self-check for CVE-2021-23336 and CVE-2021-3177 in this interpreter: "
                    "exit status 0 when both are safe, 1 when either is exposed, 2 on a "
                    "usage error.",
        status=collect, render=render)


if __name__ == "__main__":
    sys.exit(main())
