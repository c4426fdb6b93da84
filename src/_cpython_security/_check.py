"""``cpython-security-check``: every fix's self-check in one command, the verdict first.

Why: an operator's monitoring wants one exit status for "is this interpreter,
as this environment starts it, exposed to any CVE this distribution fixes?".
Each package's own command stays (``python -m <package>``); this one only
combines their ``status()``, in the order of ``_registry.FIXES``. Exit 0 when
every one is safe, 1 when any is exposed, 2 on a usage error. Each fix's
verdict (:func:`verdicts`) is the one source of the text and of the VEX
documents (``--format openvex``, ``--format cyclonedx``: ``_vex``).

A fix may break a framework's own check (Django's ``URLValidator``): where a
package's ``status()`` lists such checks (``framework_checks``), each exposed
one makes the verdict EXPOSED and is shown under its fix.

A row's ``copies`` (the stdlib module's code vendored into a distribution:
python-future's ``future.backports``) are imported first where installed,
so that what an application importing them gets is what the check reads: a
copy that lacks a fix and is not patched makes the fix EXPOSED and is named.
"""

import sys

from ._registry import BY_PACKAGE, FIXES
from ._selfcheck import (BROKEN, REINSTALL, broken_status, main as run_selfcheck,
                         nothing_patched)
from ._verdict import ABSENT, APPLIED, CARRIED, EXPOSED, SKIPPED, Verdict

__all__ = ["main", "verdicts", "exposed_fixes"]


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


def verdicts(found, environ=None):
    """Each fix's :class:`Verdict` in this process, in registry order, from *found*
    (:func:`collect`) and the environment it started with (default ``os.environ``)."""
    import os
    from ._startup import UMBRELLA, SWITCHES, effective, left_out
    environ = os.environ if environ is None else environ
    result = []
    for fix in FIXES:
        info = found[fix.package]
        each = info.get("fixes", {}).get(fix.cve, info)
        if info.get("state") == BROKEN:
            kind = BROKEN
        elif each["exposed"]:
            kind = SKIPPED if fix.cve in left_out(fix.package, environ) else EXPOSED
        elif each.get("state") == "not in this interpreter":
            kind = ABSENT
        elif each["lacks"] if "lacks" in each else each["vulnerable"]:
            kind = APPLIED
        else:
            kind = CARRIED
        verdict = Verdict(fix, kind, info)
        if verdict.exposed:
            verdict.action = hint(fix, info, environ)
        elif kind == APPLIED:
            own = environ.get(SWITCHES[fix.package].variable)
            value = effective(fix.package, environ)
            verdict.switch = None if value is None else "%s=%s" % (
                (SWITCHES[fix.package].variable, own) if own == value
                else (UMBRELLA.variable, environ.get(UMBRELLA.variable)))
        result.append(verdict)
    return result


def exposed_fixes(found):
    """The rows *found* (:func:`collect`'s) reports exposed, in registry order: the
    verdict's list (``cpython_security.exposed()`` reads it)."""
    return [verdict.fix for verdict in verdicts(found) if verdict.exposed]


def exposed_copies(found, fix):
    """The copies of *fix*'s stdlib module that lack it and are not patched, by name."""
    copies = found[fix.package].get("fixes", {}).get(fix.cve, {}).get("copies", {})
    return sorted(name for name, entry in copies.items() if entry["exposed"])


def checks_after(found, fix):
    """The framework checks that *fix* breaks, of installed frameworks: the entries of
    its package's ``status()["framework_checks"]`` whose ``after`` is its CVE."""
    return [entry for entry in found[fix.package].get("framework_checks", ())
            if entry["after"] == fix.cve and entry["installed"]]


def hint(fix, info, environ):
    """What to set so that *fix*, exposed in *info* (its package's ``status()``),
    is applied at start-up: one line naming the exact variable and value."""
    from ._startup import SWITCHES, effective, left_out
    if info.get("state") == BROKEN:
        return "%s cannot be checked (%s), so %s count as exposed: repair the install: %s" % (
            fix.package, info["error"], ", ".join(each.cve for each in FIXES
                                                  if each.package == fix.package), REINSTALL)
    if fix.cve not in left_out(fix.package, environ):
        return _switch_hint(fix, info, environ)
    switch = SWITCHES[fix.package]
    if switch.choice(effective(fix.package, environ)) in ("off", "invalid"):
        # No switch would apply it either: naming the skip list alone applies nothing.
        return "%s, and %s" % (_switch_hint(fix, info, environ), _skip_hint(environ, True))
    return _skip_hint(environ)


def _skip_hint(environ, also=False):
    """What ``CPYTHON_SECURITY_SKIP`` leaves out, and how to apply it: *also*, where
    a switch must be set too."""
    from ._startup import SKIP_VARIABLE, left_out, skipped
    out = [each for each in FIXES if each.cve in left_out(each.package, environ)]
    rest = sorted(set(skipped(environ)).difference(
        [each.cve for each in out] + [each.package for each in out]))
    remedy = ("set %s=%s" % (SKIP_VARIABLE, ",".join(rest)) if rest
              else "unset %s" % SKIP_VARIABLE)
    said = "%s=%s leaves %s out" % (SKIP_VARIABLE, environ.get(SKIP_VARIABLE),
                                    ", ".join(each.cve for each in out))
    if also:
        return "%s: %s" % (remedy, said)
    return "%s: %s to apply them" % (said, remedy)


def _switch_hint(fix, info, environ):
    """The hint for *fix* where the skip list does not name it: the switch to set."""
    from ._startup import SWITCHES, UMBRELLA, effective
    switch = SWITCHES[fix.package]
    own = environ.get(switch.variable)
    if own and effective(fix.package, environ) != own:  # blanks only: the umbrella decides
        own = None
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
    copies = exposed_copies({fix.package: info}, fix)
    if copies:  # the switch ran: the copy is what it could not fix
        return "%s stay%s exposed with the switch on: a fix cannot be applied to such a " \
            "copy (python -m %s --json: each fix's copies, and why)" % (
                ", ".join(copies), "s" if len(copies) == 1 else "", fix.package)
    return "%s stays exposed with its switch on: python -m %s names the parser no " \
        "switch reaches" % (fix.cve, fix.package)


#: The width every line of the check fits.
WIDTH = 80


def _wrapped(text, first, rest="  "):
    """*text* after *first*, in lines of :data:`WIDTH` at most, the next ones after *rest*.

    Words break at spaces; a word too long for a line (a skip list's value)
    breaks after its commas."""
    import re
    pieces = []
    for word in text.split():
        parts = re.findall(r"[^,]+,?|,", word) if len(word) > WIDTH - len(rest) else [word]
        pieces.extend(zip(parts, [" "] + [""] * (len(parts) - 1)))
    lines, line, empty = [], first, True
    for piece, glue in pieces:
        joined = line + ("" if empty else glue) + piece
        if not empty and len(joined) > WIDTH:
            lines.append(line)
            joined = rest + piece
        line, empty = joined, False
    lines.append(line)
    return lines


def render(found, environ=None, verbose=False):
    """The check as text, in lines of 80 columns at most: the verdict, what to do,
    the exposed fixes by module, what is safe; *verbose*: then a line per fix.

    Why this order: at a hundred fixes an operator reads the first lines only,
    so they carry the answer and the action; the per-fix list is ``--verbose``."""
    import os
    environ = os.environ if environ is None else environ
    found_verdicts = verdicts(found, environ)
    exposed = [verdict for verdict in found_verdicts if verdict.exposed]
    checks = [(verdict, entry) for verdict in found_verdicts
              for entry in checks_after(found, verdict.fix)]
    broken = [(verdict, entry) for verdict, entry in checks if entry["exposed"] is True]
    lines = ["verdict: EXPOSED (%d of %d fixes not in effect%s)" % (
        len(exposed), len(found_verdicts), ", %d framework check%s broken" % (
            len(broken), "" if len(broken) == 1 else "s") if broken else "")
        if exposed or broken else "verdict: safe"]
    hints = []
    for verdict in exposed + [verdict for verdict, _ in broken]:
        action = verdict.action or hint(verdict.fix, found[verdict.fix.package], environ)
        if action not in hints:
            hints.append(action)
    for line in hints:  # one that another hint starts with says less than it
        if not any(other.startswith(line + ", and ") for other in hints):
            lines.extend(_wrapped(line, "hint: "))
    named = [(verdict.module, verdict.fix.cve) for verdict in exposed] + [
        (entry["check"], entry["cve"]) for _, entry in broken] + [
        (copy, verdict.fix.cve) for verdict in found_verdicts
        for copy in exposed_copies(found, verdict.fix)]
    if named:
        lines.append("exposed, by module:")
        modules = []
        for module, _ in named:
            if module not in modules:
                modules.append(module)
        width = max(len(module) for module in modules) + 3
        for module in modules:
            lines.extend(_wrapped(" ".join(cve for each, cve in named if each == module),
                                  ("  %s " % module).ljust(width), " " * width))
    counts = []
    for kind, words in ((APPLIED, "applied at start-up"),
                        (CARRIED, "carried by this interpreter"),
                        (ABSENT, "not in this interpreter")):
        number = len([verdict for verdict in found_verdicts if verdict.kind == kind])
        if number:
            counts.append("%d %s" % (number, words))
    lines.extend(_wrapped(", ".join(counts) or "none", "safe: "))
    if not verbose:
        lines.append("cpython-security-check --verbose lists every fix, --json every status")
        return "\n".join(lines)
    lines.append("every fix:")
    for verdict in found_verdicts:
        fix = verdict.fix
        copies = exposed_copies(found, fix)
        lines.extend(_wrapped("%s (%s, %s%s)" % (
            verdict.summary, fix.issue, fix.package,
            "; exposed copy: " + ", ".join(copies) if copies else ""),
            "%-15s %-8s" % (fix.cve + ":", "EXPOSED" if verdict.exposed else "safe"),
            " " * 24))
        for entry in checks_after(found, fix):  # a framework check this fix breaks
            lines.extend(_wrapped("%s (%s, after %s, %s)" % (
                entry["summary"], entry["issue"], fix.cve, fix.package),
                "  %-13s %-8s" % (entry["cve"] + ":", "EXPOSED" if entry["exposed"] is True
                                  else "safe"), " " * 24))
    return "\n".join(lines)


def main(argv=None):
    """Run every self-check; return 0 (all safe), 1 (any exposed) or 2 (usage)."""
    return run_selfcheck(
        argv, prog="cpython-security-check",
        description="Self-check for the CVEs this distribution fixes (%s): exit status 0 "
                    "when all are safe, 1 when any is exposed, 2 on a usage error."
                    % ", ".join(fix.cve for fix in FIXES),
        status=collect, render=render, formats={
            "text": lambda found, args: render(found, verbose=args.verbose),
            "openvex": lambda found, args: _document("openvex", found, args),
            "cyclonedx": lambda found, args: _document("cyclonedx", found, args)},
        options=_OPTIONS)


#: The check's own options, beyond ``--json`` and ``--format``.
_OPTIONS = [
    (("--verbose",), {"action": "store_true",
                      "help": "after the summary, a line per fix (text only)"}),
    (("--author",), {"default": "cpython-security-check",
                     "help": "the author a VEX document names: your organisation, an "
                             "e-mail address or an IRI (default: %(default)s)"}),
]


def _document(form, found, args):
    """The VEX document (``_vex``) of *found*, in the format *form*."""
    import os
    from . import _vex
    return _vex.document(form, verdicts(found, os.environ), os.environ, args.author)


if __name__ == "__main__":
    sys.exit(main())
