"""``cpython-security-check``: every fix's self-check in one command, one line per registry row.

Why: an operator's monitoring wants one exit status for "is this interpreter,
as this environment starts it, exposed to any CVE this distribution fixes?".
Each package's own command stays (``python -m <package>``); this one only
combines their ``status()``, in the order of ``_registry.FIXES``, each row
followed by the framework checks its fix breaks where a package's ``status()``
lists them (``framework_checks``). Exit 0 when every one is safe, 1 when any
is exposed, 2 on a usage error.

A row's ``copies`` (the stdlib module's code vendored into a distribution:
python-future's ``future.backports``) are imported first where installed,
so that what an application importing them gets is what the check reads: a
copy that lacks a fix and is not patched makes the fix's line EXPOSED and
names the copy.
"""

import sys

from ._registry import BY_PACKAGE, FIXES
from ._selfcheck import (BROKEN, REINSTALL, broken_status, main as run_selfcheck,
                         nothing_patched)

__all__ = ["main"]


def import_copies():
    """Import every row's copies that are installed (a start-up switch then patches each
    as the application's import would); the names imported."""
    found = []
    for fix in FIXES:
        for name in fix.copies:
            try:
                __import__(name)
            except Exception:  # not installed, or broken here: nothing imported to check
                continue
            found += [name] if name not in found else []
    return found


def collect():
    """``{package: status()}`` of every fix's package, computed in this process once the
    installed copies are imported, and ``"exposed"``: whether any is. A package that
    cannot be imported or checked counts as exposed (``_selfcheck.broken_status``)."""
    import_copies()
    found = {}
    for fix in FIXES:
        if fix.package not in found:
            found[fix.package] = _status(fix.package)
    found["exposed"] = any(found[fix.package]["exposed"] for fix in FIXES)
    return found


def _status(package):
    try:
        __import__(package)
        return sys.modules[package].status()
    except Exception as exc:  # a partial install: a verdict, not a traceback
        return broken_status(package, BY_PACKAGE[package].cve, exc)


def _exposed(found, fix):
    """Whether *fix* is exposed (a package with several fixes reports each in
    ``status()["fixes"]``)."""
    info = found[fix.package]
    return info.get("fixes", {}).get(fix.cve, info)["exposed"]


def exposed_copies(found, fix):
    """The copies of *fix*'s stdlib module that lack it and are not patched, by name."""
    copies = found[fix.package].get("fixes", {}).get(fix.cve, {}).get("copies", {})
    return sorted(name for name, entry in copies.items() if entry["exposed"])


def exposed_fixes(found):
    """The rows *found* (:func:`collect`'s) reports exposed, in registry order: the
    verdict's list (``cpython_security.exposed()`` reads it)."""
    return [fix for fix in FIXES if _exposed(found, fix)]


def hint(fix, info, environ):
    """What to set so that *fix*, exposed in *info* (its package's ``status()``),
    is applied at start-up: one line naming the exact variable and value."""
    from ._startup import SKIP_VARIABLE, SWITCHES, UMBRELLA, effective, left_out, skipped
    if info.get("state") == BROKEN:
        return "%s cannot be checked (%s), so %s count as exposed: repair the install: %s" % (
            fix.package, info["error"], ", ".join(each.cve for each in FIXES
                                                  if each.package == fix.package), REINSTALL)
    switch = SWITCHES[fix.package]
    own = environ.get(switch.variable)
    if own and effective(fix.package, environ) != own:  # blanks only: the umbrella decides
        own = None
    if fix.cve in left_out(fix.package, environ):
        out = [each for each in FIXES if each.cve in left_out(each.package, environ)]
        rest = sorted(set(skipped(environ)).difference(
            [each.cve for each in out] + [each.package for each in out]))
        return "%s=%s leaves %s out: %s" % (
            SKIP_VARIABLE, environ.get(SKIP_VARIABLE), ", ".join(each.cve for each in out),
            "set %s=%s to apply them" % (SKIP_VARIABLE, ",".join(rest)) if rest
            else "unset %s to apply them" % SKIP_VARIABLE)
    copies = exposed_copies({fix.package: info}, fix)
    if copies and info["patched"]:  # the switch ran: the copy is what it could not fix
        return "%s stay%s exposed with the switch on: a fix cannot be applied to such a " \
            "copy (python -m %s --json: each fix's copies, and why)" % (
                ", ".join(copies), "s" if len(copies) == 1 else "", fix.package)
    umbrella = UMBRELLA.choice(environ.get(UMBRELLA.variable))
    if own:  # the package's own variable decides for it
        wanted = switch.choice(own)
        if wanted in ("invalid", "off"):
            return "%s=%s leaves %s unpatched: unset it (%s=1 then applies it)" % (
                switch.variable, own, fix.cve, UMBRELLA.variable)
        if wanted not in (fix.umbrella, "force") and info["patched"]:
            # Patched, still exposed: the value applies less than the umbrella's.
            return "%s=%s leaves out what =%s adds: set %s=%s, or unset it (%s=1 " \
                "applies both)" % (switch.variable, own, fix.umbrella, switch.variable,
                                   fix.umbrella, UMBRELLA.variable)
    elif umbrella == "invalid":
        return "%s=%s is not an accepted value: set %s=1 to apply every fix at start-up" % (
            UMBRELLA.variable, environ.get(UMBRELLA.variable), UMBRELLA.variable)
    elif umbrella != "patch":
        return "set %s=1 to apply every fix at start-up" % UMBRELLA.variable
    if not info["patched"]:
        variable = switch.variable if own else UMBRELLA.variable
        return nothing_patched(variable, environ.get(variable))
    return "%s stays exposed with its switch on: python -m %s names the parser no " \
        "switch reaches" % (fix.cve, fix.package)


def _checks_after(found, fix):
    """The framework checks that *fix* breaks, of installed frameworks: the entries of
    its package's ``status()["framework_checks"]`` whose ``after`` is its CVE."""
    return [entry for entry in found[fix.package].get("framework_checks", ())
            if entry["after"] == fix.cve and entry["installed"]]


def render(found, environ=None):
    """One line per registry row; under a row, indented, one per framework check
    its fix breaks (a framework's own CVE, fixed by the package's adapter)."""
    import os
    environ = os.environ if environ is None else environ
    lines = []
    hints = []
    exposed = []
    for fix in FIXES:
        copies = exposed_copies(found, fix)
        rows = [(fix.cve, "%-15s", _exposed(found, fix), fix.summary, fix.issue,
                 "; exposed copy: " + ", ".join(copies) if copies else "")]
        rows.extend((entry["cve"], "  %-13s", entry["exposed"] is True, entry["summary"],
                     "%s, after %s" % (entry["issue"], fix.cve), "")
                    for entry in _checks_after(found, fix))
        for cve, width, is_exposed, summary, issue, more in rows:
            verdict = "EXPOSED" if is_exposed else "safe"
            lines.append((width + " %-8s %s (%s, %s%s)") % (cve + ":", verdict, summary, issue,
                                                            fix.package, more))
            if is_exposed:
                exposed.append(cve)
                line = hint(fix, found[fix.package], environ)
                if line not in hints:
                    hints.append(line)
    lines.extend("hint: " + line for line in hints)
    lines.append("verdict: %s" % ("EXPOSED: " + ", ".join(exposed) if exposed else "safe"))
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
