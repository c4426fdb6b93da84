"""What the self-checks share: exit statuses, common ``status()`` keys, hints, the report, the
command line.

Why: an operator's monitoring reads both commands the same way (0 safe,
1 exposed, 2 usage error) and both ``status()`` dicts through the same keys.
"""

from __future__ import print_function

import argparse
import json
import sys

__all__ = ["EXIT_SAFE", "EXIT_EXPOSED", "EXIT_USAGE", "PTH_FILE", "BROKEN", "REINSTALL",
           "broken_status", "cannot_import", "misspelt", "nothing_patched",
           "switch_hints", "misspelt_hints", "render", "main"]

EXIT_SAFE = 0
EXIT_EXPOSED = 1
EXIT_USAGE = 2

#: The umbrella switch's variables (``_startup.UMBRELLA``, ``SKIP_VARIABLE``): named here
#: so that a self-check does not import the start-up module.
_UMBRELLA_NAMES = ("CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP")

#: The distribution's one start-up file, at the root of site-packages (tools/make_pth.py).
PTH_FILE = "cpython_security_patch.pth"

#: The ``state`` of a package that cannot be imported or checked (:func:`broken_status`).
BROKEN = "broken"

#: What repairs an install missing a package or holding a damaged one.
REINSTALL = "pip install --force-reinstall cpython-security-backports"


def broken_status(package, cve, exc):
    """The ``status()`` of *package*, whose import or ``status()`` raised *exc*: exposed,
    ``state`` :data:`BROKEN`, ``error`` naming *exc*.

    Why exposed: nothing proves the fix where its package cannot run, and a
    partial install (a package deleted, a file damaged) must read as a
    verdict the operator can act on, never as a traceback nor as safe."""
    return {"package": package, "cve": cve, "state": BROKEN, "patched": False, "exposed": True,
            "error": "%s: %s" % (type(exc).__name__, exc)}


def cannot_import(package, name, exc):
    """The start-up line for *package*, whose module *name* raised *exc* on import."""
    return ("%s: start-up activation failed: cannot import %s: %s: %s; nothing of it was "
            "patched: repair the install: %s"
            % (package, name, type(exc).__name__, exc, REINSTALL))


def nothing_patched(variable, value):
    """The hint for a switch that is set where nothing was patched at start-up."""
    return ("%s=%s is set but nothing was patched at start-up: is %s in this "
            "interpreter's site-packages, and python run without -S?" % (variable, value, PTH_FILE))


def misspelt(names, environ=None):
    """Variables set in *environ* (default ``os.environ``) whose names are close
    to one of *names* but not equal to it, as ``(set, meant)`` pairs.

    Why: a misspelt switch (``CTYPES_SAFE_PACTH=1``) changes nothing and says
    nothing; the self-check is where an operator looks, so it names the typo.
    """
    import difflib
    import os
    environ = os.environ if environ is None else environ
    names = tuple(names) + _UMBRELLA_NAMES  # the umbrella's, which every package reads
    found = []
    for name in sorted(environ):
        if name in names:
            continue
        close = difflib.get_close_matches(name.upper(), names, n=1, cutoff=0.85)
        if close:
            found.append((name, close[0]))
    return found


def switch_hints(info, choice, accepted):
    """The hints on a package's start-up switch, for a *status()* dict *info*:
    only where the process is exposed and nothing is patched. *choice(value)*
    reads the variable's value, *accepted* names the values it takes."""
    if not info["exposed"] or info["patched"]:
        return []
    import os
    package = info["package"]
    variable, value = info["activation"]["variable"], info["activation"]["value"]
    umbrella = os.environ.get(_UMBRELLA_NAMES[0])
    if not (value or "").strip() and choice(umbrella) == "patch":  # the umbrella decides
        variable, value = _UMBRELLA_NAMES[0], umbrella
    wanted = choice(value)
    if wanted == "invalid":
        return ["%s=%r is not an accepted value: use %s" % (variable, value, accepted)]
    if wanted == "off":
        return ["set %s=1 (every fix) to patch at start-up, or call %s.patch()"
                % (_UMBRELLA_NAMES[0], package)]
    return [nothing_patched(variable, value)]


def misspelt_hints(names):
    """A hint for each variable set whose name is close to one of *names* (see
    :func:`misspelt`)."""
    return ["%s is set, but this package does not read it: did you mean %s?" % pair
            for pair in misspelt(names)]


def render(info, issue, rows, hints, exposure):
    """The human-readable self-check of a *status()* dict *info*: a heading naming
    *issue* (the upstream one), the interpreter, *rows* (the package's own lines:
    what the stock code does, whether the fix is active), a line per hint, and the
    verdict: *exposure* (what an attacker gets) when exposed, else safe."""
    interpreter = info["interpreter"]
    lines = [
        "%s %s self-check (%s, %s)" % (info["package"], info["version"], info["cve"], issue),
        "interpreter:  %s %s (%s)" % (interpreter["implementation"], interpreter["version"],
                                      interpreter["executable"]),
    ]
    lines.extend(rows)
    lines.extend("hint:         " + hint for hint in hints)
    lines.append("verdict:      %s" % ("EXPOSED: " + exposure if info["exposed"] else "safe"))
    return "\n".join(lines)


def main(argv, prog, description, status, render, options=(), amend=None, formats=None):
    """The command line of a self-check; returns its exit status.

    ``--json`` prints *status()* as JSON, else *render(status())* is printed.
    *options*: ``[(flags, keywords)]`` for ``add_argument``; *amend(args,
    info)*: a last change to the dict from them. *formats*: ``{name:
    function(info, args) -> text}``, the other outputs ``--format`` chooses
    (``--format json`` is ``--json``). Exit 0 when safe, 1 when exposed, 2 on
    a usage error (0 for ``--help``).
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--json", action="store_true",
                        help="print the self-check as JSON (the dict status() returns)")
    formats = dict(formats or {})
    if formats:
        choices = ["text", "json"] + sorted(set(formats).difference(["text"]))
        parser.add_argument("--format", choices=choices, default="text",
                            help="what to print (default: %(default)s)")
    for flags, keywords in options:
        parser.add_argument(*flags, **keywords)
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code
    info = status()
    if amend is not None:
        amend(args, info)
    chosen = "json" if args.json else getattr(args, "format", "text")
    if chosen == "json":
        print(json.dumps(info, indent=2, sort_keys=True, separators=(",", ": ")))
    elif chosen in formats:
        print(formats[chosen](info, args))
    else:
        print(render(info))
    return EXIT_EXPOSED if info["exposed"] else EXIT_SAFE
