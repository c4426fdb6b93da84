"""``python -m urllib_parse_backport``: is this process exposed to a CVE of ``urllib.parse``?

Prints what the stdlib ``parse_qsl`` does with ``';'`` (bpo-42967), whether the
shim replaced it, what the parsers of installed frameworks do, the framework
checks a urlsplit fix breaks (Django's ``URLValidator``, CVE-2021-32052), each urlsplit
fix (the interpreter's own, and as this process calls it, with
CVE-2023-24329's blocklist URL), and the verdict. Exit status 0 when no
parser this process calls lacks a fix, 1 when one does (a fix left out
counts), 2 on a usage error. ``--json`` prints :func:`status` as JSON.
"""

import os

from _cpython_security._selfcheck import (EXIT_EXPOSED, EXIT_SAFE, EXIT_USAGE, misspelt,
                                          main as run_selfcheck, nothing_patched)

from _cpython_security._registry import fixes_of

from . import status
from .._policy import SEPARATOR_VARIABLE, WARN_VARIABLE
from .._shim._startup import ACCEPTED, choice

#: The umbrella switch: ``frameworks`` for this package (``_cpython_security._registry``).
UMBRELLA = "CPYTHON_SECURITY_PATCH"

__all__ = ["main", "render", "misspelt", "EXIT_SAFE", "EXIT_EXPOSED", "EXIT_USAGE"]


def _stdlib_line(stdlib):
    """What the stdlib parser does by itself, and whether this process still calls it."""
    if stdlib["vendor_patched"]:
        kind = "vendor-patched (separator defaults to None, Red Hat's fix)"
    elif stdlib["splits_semicolon"]:
        kind = "splits on ';' (CVE-2021-23336)"
    elif not stdlib["has_separator"]:
        kind = "no separator parameter (before bpo-42967)"
    else:
        kind = "fixed (bpo-42967)"
    if stdlib["replaced_by_shim"]:
        return "%s; replaced by the shim in this process" % kind
    if stdlib["splits_semicolon"]:
        return "VULNERABLE: %s; not replaced" % kind
    return kind


def _hints(info):
    """What to do, only where it applies."""
    hints = []
    variable, value = info["activation"]["variable"], info["activation"]["value"]
    umbrella = os.environ.get(UMBRELLA)
    if not value and choice(umbrella) == "patch":  # the umbrella: every fix, adapters too
        variable, value, wanted = UMBRELLA, umbrella, "frameworks"
    else:
        wanted = choice(value)
    unpatched = [cve for cve, entry in info["fixes"].items()
                 if entry["exposed"] and entry["state"] not in ("left out", "applied")]
    if unpatched and not info["patched"]:
        if wanted == "invalid":
            hints.append("%s=%r is not an accepted value: use %s" % (variable, value, ACCEPTED))
        elif wanted == "off":
            hints.append("set %s=1 (every fix, at start-up) or call "
                         "urllib_parse_backport.patch(frameworks=True)" % UMBRELLA)
        else:
            hints.append(nothing_patched(variable, value))
    if any(entry["exposed"] for entry in info["frameworks"] + info["framework_checks"]) \
            and wanted != "frameworks":
        hints.append("set %s=frameworks (or unset it and set %s=1), or call "
                     "patch(frameworks=True), to fix the framework parsers and checks "
                     "marked EXPOSED" % (info["activation"]["variable"], UMBRELLA))
    if info["policy"]["setting"] == "legacy":
        hints.append("%s=legacy splits on ';' on purpose" % info["policy"]["variable"])
    for name, meant in misspelt((variable, SEPARATOR_VARIABLE, WARN_VARIABLE)):
        hints.append("%s is set, but this package does not read it: did you mean %s?"
                     % (name, meant))
    return hints


def render(info):
    """The human-readable report of :func:`status`'s dict."""
    interpreter = info["interpreter"]
    lines = [
        "%s %s self-check (%s, bpo-42967)" % (info["package"], info["version"], info["cve"]),
        "interpreter:     %s %s (%s)" % (interpreter["implementation"], interpreter["version"],
                                         interpreter["executable"]),
        "stdlib %-9s %s" % (info["stdlib"]["module"] + ":", _stdlib_line(info["stdlib"])),
        "shim active:     %s" % ("yes" if info["patched"] else "no"),
        "attack query:    %s" % info["attack"]["query"],
        "  as called:     %r" % (sorted(info["stdlib"]["attack_as_called"].items()),),
        "  backport:      %r" % (sorted(info["attack"]["backport"].items()),),
        "frameworks:",
    ]
    for entry in info["frameworks"]:
        flag = {True: "EXPOSED: ", False: "", None: "UNKNOWN: "}[entry["exposed"]]
        lines.append("  %s: %s%s" % (entry["parser"], flag, entry["status"]))
    lines.append("framework checks a fix breaks:")
    for entry in info["framework_checks"]:
        flag = {True: "EXPOSED: ", False: "", None: "UNKNOWN: "}[entry["exposed"]]
        lines.append("  %s: %s%s" % (entry["check"], flag, entry["status"]))
    lines.append("urlsplit fixes:")
    for cve in sorted(info["fixes"], key=_ORDER.index):
        if cve == info["cve"]:
            continue
        entry = info["fixes"][cve]
        lines.append("  %-15s %s" % (cve + ":", _fix_line(entry)))
    blocklist = info["blocklist"]
    lines.extend([
        "blocklist URL:   %r (CVE-2023-24329)" % (blocklist["url"],),
        "  hostname as called: %r" % (blocklist["hostname_as_called"],),
        "  backport:           %r" % (blocklist["hostname_backport"],),
    ])
    lines.extend("hint:            " + hint for hint in _hints(info))
    exposed = [_EXPOSED_BECAUSE[cve] for cve in _ORDER if info["fixes"][cve]["exposed"]] + [
        "%s %s" % (entry["check"], entry["status"]) for entry in info["framework_checks"]
        if entry["exposed"] is True]
    lines.append("verdict:         %s" % ("safe" if not exposed else "EXPOSED: " + "; ".join(
        exposed)))
    return "\n".join(lines)


#: The fixes in registry order, and each one's words in the verdict (the registry's).
_ORDER = [fix.cve for fix in fixes_of("urllib_parse_backport")]
_EXPOSED_BECAUSE = dict((fix.cve, fix.exposed) for fix in fixes_of("urllib_parse_backport"))


def _fix_line(entry):
    """One urlsplit fix: what the interpreter has, and what this process calls."""
    own = "this interpreter lacks it" if entry["lacks"] else "this interpreter has it"
    if entry["state"] == "left out":
        return "EXPOSED: %s; left out (leave_out, CPYTHON_SECURITY_SKIP)" % own
    if entry["exposed"]:
        return "EXPOSED: %s; not patched" % own
    if entry["state"] == "applied":
        return "fixed by the shim (%s)" % own
    return own


def main(argv=None):
    """Run the self-check; returns the exit status."""
    return run_selfcheck(
        argv, prog="python -m urllib_parse_backport",
        description="Self-check for CVE-2021-23336 (bpo-42967) and urlsplit's CVE-2023-24329, "
                    "CVE-2022-0391, CVE-2024-11168 and CVE-2025-0938: exit status 0 when "
                    "safe, 1 when exposed, 2 on a usage error.",
        status=status, render=render,
        options=[(("--audit",), {
            "action": "store_true",
            "help": "instead, list the query parsers that split on ';' in the Python "
                    "source under PATH... (see --audit --help)"})])
