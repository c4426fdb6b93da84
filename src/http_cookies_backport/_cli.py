"""``python -m http_cookies_backport``: is this process exposed to CVE-2024-7592 (gh-123067)?

Prints whether the stdlib's cookie unquoting is the quadratic one, whether
the fix is active in this process, and the verdict. Exit status 0 when
safe, 1 when exposed, 2 on a usage error; ``--json`` prints :func:`status`.
"""

from _cpython_security._selfcheck import EXIT_EXPOSED, EXIT_SAFE, misspelt, main as run_selfcheck

from ._api import status
from ._startup import ACCEPTED, choice

__all__ = ["main", "render", "EXIT_SAFE", "EXIT_EXPOSED"]


def _hints(info):
    """What to do, only where it applies."""
    hints = []
    variable, value = info["activation"]["variable"], info["activation"]["value"]
    wanted = choice(value)
    if info["exposed"] and not info["patched"]:
        if wanted == "invalid":
            hints.append("%s=%r is not an accepted value: use %s" % (variable, value, ACCEPTED))
        elif wanted == "off":
            hints.append("set %s=1 to patch at start-up, or call "
                         "http_cookies_backport.patch()" % variable)
        else:
            hints.append("%s=%s is set but nothing was patched at start-up: is "
                         "http_cookies_backport_patch.pth in this interpreter's "
                         "site-packages, and python run without -S?" % (variable, value))
    for name, meant in misspelt((variable,)):
        hints.append("%s is set, but this package does not read it: did you mean %s?"
                     % (name, meant))
    return hints


def render(info):
    """The human-readable report of :func:`status`'s dict."""
    interpreter = info["interpreter"]
    fix = "yes (%s)" % ", ".join(info["report"]["changed"]) if info["patched"] else "no"
    lines = [
        "%s %s self-check (%s, gh-123067)" % (info["package"], info["version"], info["cve"]),
        "interpreter:  %s %s (%s)" % (interpreter["implementation"], interpreter["version"],
                                      interpreter["executable"]),
        "%s: %s" % (info["target"], "VULNERABLE: quadratic in backslashes" if info["vulnerable"]
                    else "fixed (gh-123067)"),
        "fix active:   %s" % fix,
    ]
    lines.extend("hint:         " + hint for hint in _hints(info))
    lines.append("verdict:      %s" % (
        "EXPOSED: a Cookie header of backslashes costs this process quadratic CPU time"
        if info["exposed"] else "safe"))
    return "\n".join(lines)


def main(argv=None):
    """Run the self-check; returns the exit status."""
    return run_selfcheck(
        argv, prog="python -m http_cookies_backport",
        description="Self-check for CVE-2024-7592 (gh-123067): exit status 0 when safe, "
                    "1 when exposed, 2 on a usage error.",
        status=status, render=render)
