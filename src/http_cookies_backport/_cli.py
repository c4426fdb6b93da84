"""``python -m http_cookies_backport``: is this process exposed to CVE-2024-7592 (gh-123067)?

Prints whether the stdlib's cookie unquoting is the quadratic one, whether
the fix is active in this process, and the verdict. Exit status 0 when
safe, 1 when exposed, 2 on a usage error; ``--json`` prints :func:`status`.
"""

from _cpython_security._selfcheck import (EXIT_EXPOSED, EXIT_SAFE, main as run_selfcheck,
                                          misspelt_hints, render as render_selfcheck,
                                          switch_hints)

from ._api import status
from ._startup import ACCEPTED, choice

__all__ = ["main", "render", "EXIT_SAFE", "EXIT_EXPOSED"]


def render(info):
    """The human-readable report of :func:`status`'s dict."""
    fix = "yes (%s)" % ", ".join(info["report"]["changed"]) if info["patched"] else "no"
    rows = [
        "%s: %s" % (info["target"], "VULNERABLE: quadratic in backslashes" if info["vulnerable"]
                    else "fixed (gh-123067)"),
        "fix active:   %s" % fix,
    ]
    hints = switch_hints(info, choice, ACCEPTED)
    hints += misspelt_hints((info["activation"]["variable"],))
    return render_selfcheck(info, "gh-123067", rows, hints,
                            "a Cookie header of backslashes costs this process quadratic CPU time")


def main(argv=None):
    """Run the self-check; returns the exit status."""
    return run_selfcheck(
        argv, prog="python -m http_cookies_backport",
        description="Self-check for CVE-2024-7592 (gh-123067): exit status 0 when safe, "
                    "1 when exposed, 2 on a usage error.",
        status=status, render=render)
