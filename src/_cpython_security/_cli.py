"""``python -m PACKAGE`` for a fix package with no command line of its own: its self-check.

Why here: such a self-check says the same three things for every fix (what
the stock code does, whether the fix is active, the verdict), and its words
are the registry row's (``unfixed``, ``issue``, ``exposed``), so a new fix
writes none. The package's ``status()`` gives ``target`` (the stdlib name)
and ``vulnerable`` besides the keys every ``status()`` has. Exit status 0
when safe, 1 when exposed, 2 on a usage error; ``--json`` prints ``status()``.
"""

from ._registry import BY_PACKAGE, fixes_of
from ._selfcheck import (main as run_selfcheck, misspelt_hints, render as render_selfcheck,
                         switch_hints)

__all__ = ["main", "render"]


def render(info):
    """The human-readable report of a fix package's ``status()`` dict *info*: a line per
    fix (``info["fixes"]`` where the package has several, else *info* itself)."""
    from ._startup import SWITCHES
    package = info["package"]
    fixes, switch = fixes_of(package), SWITCHES[package]
    active = "yes (%s)" % ", ".join(info["report"]["changed"]) if info["patched"] else "no"
    rows, exposure = [], []
    for fix in fixes:
        each = info.get("fixes", {}).get(fix.cve, info)
        lacks = each["lacks"] if "lacks" in each else each["vulnerable"]
        rows.append("%s: %s" % (each["target"], "VULNERABLE: " + fix.unfixed if lacks
                                else "not in this interpreter: nothing to fix"
                                if each.get("state") == "not in this interpreter"
                                else "fixed (%s)" % fix.issue))
        if each["exposed"]:
            exposure.append(fix.exposed)
    rows.append("fix active:   %s" % active)
    hints = switch_hints(info, switch.choice, switch.accepted)
    hints += misspelt_hints((info["activation"]["variable"],))
    return render_selfcheck(info, ", ".join(fix.issue for fix in fixes), rows, hints,
                            "; ".join(exposure))


def main(package, argv=None):
    """Run *package*'s self-check; returns the exit status."""
    fix = BY_PACKAGE[package]
    return run_selfcheck(
        argv, prog="python -m " + package,
        description="Self-check for %s (%s): exit status 0 when safe, 1 when exposed, "
                    "2 on a usage error." % (fix.cve, fix.issue),
        status=__import__(package, None, None, ("status",)).status, render=render)
