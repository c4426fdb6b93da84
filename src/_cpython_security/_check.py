"""``cpython-security-check``: every fix's self-check in one command, one line per registry row.

Why: an operator's monitoring wants one exit status for "is this interpreter,
as this environment starts it, exposed to any CVE this distribution fixes?".
Each package's own command stays (``python -m <package>``); this one only
combines their ``status()``, in the order of ``_registry.FIXES``. Exit 0 when
every one is safe, 1 when any is exposed, 2 on a usage error.
"""

import sys

from ._registry import FIXES
from ._selfcheck import main as run_selfcheck

__all__ = ["main"]


def collect():
    """``{package: status()}`` of every fix's package, computed in this process, and
    ``"exposed"``: whether any is."""
    found = {}
    for fix in FIXES:
        __import__(fix.package)
        found[fix.package] = sys.modules[fix.package].status()
    found["exposed"] = any(found[fix.package]["exposed"] for fix in FIXES)
    return found


def render(found):
    lines = []
    for fix in FIXES:
        info = found[fix.package]
        # A package with several fixes reports each in status()["fixes"].
        exposed = info.get("fixes", {}).get(fix.cve, info)["exposed"]
        verdict = "EXPOSED" if exposed else "safe"
        lines.append("%-15s %-8s %s (%s, %s)" % (fix.cve + ":", verdict, fix.summary,
                                                 fix.issue, fix.package))
    lines.append("verdict: %s" % ("EXPOSED: run the per-package command for details "
                                  "(python -m <package>)" if found["exposed"] else "safe"))
    return "\n".join(lines)


def main(argv=None):
    """Run every self-check; return 0 (all safe), 1 (any exposed) or 2 (usage)."""
    return run_selfcheck(
        argv, prog="cpython-security-check",
        description="Self-check for the CVEs this distribution fixes (%s): exit status 0 "
                    "when all are safe, 1 when any is exposed, 2 on a usage error."
                    % ", ".join(fix.cve for fix in FIXES),
        status=collect, render=render)


if __name__ == "__main__":
    sys.exit(main())
