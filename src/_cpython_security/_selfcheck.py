"""What both self-checks share: exit statuses, common ``status()`` keys, hints, the command line.

Why: an operator's monitoring reads both commands the same way (0 safe,
1 exposed, 2 usage error) and both ``status()`` dicts through the same keys.
"""

from __future__ import print_function

import argparse
import json
import sys

__all__ = ["EXIT_SAFE", "EXIT_EXPOSED", "EXIT_USAGE", "common_status", "misspelt", "main"]

EXIT_SAFE = 0
EXIT_EXPOSED = 1
EXIT_USAGE = 2

#: The umbrella switch's variables (``_startup.UMBRELLA``, ``SKIP_VARIABLE``): named here
#: so that a self-check does not import the start-up module.
_UMBRELLA_NAMES = ("CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP")


def common_status(package, version, cve, patched, report, variable, exposed):
    """The keys every ``status()`` has, in the same shape in both packages."""
    import os
    import platform
    return {
        "package": package,
        "version": version,
        "cve": cve,
        "interpreter": {
            "implementation": platform.python_implementation(),
            "version": platform.python_version(),
            "executable": sys.executable,
        },
        "patched": patched,
        "report": report.as_dict() if report is not None else None,
        "activation": {"variable": variable, "value": os.environ.get(variable)},
        "exposed": exposed,
    }


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


def main(argv, prog, description, status, render, options=(), amend=None):
    """The command line of a self-check; returns its exit status.

    ``--json`` prints *status()* as JSON, else *render(status())* is printed.
    *options*: ``[(flags, keywords)]`` for ``add_argument``; *amend(args,
    info)*: a last change to the dict from them. Exit 0 when safe, 1 when
    exposed, 2 on a usage error (0 for ``--help``).
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--json", action="store_true",
                        help="print the self-check as JSON (the dict status() returns)")
    for flags, keywords in options:
        parser.add_argument(*flags, **keywords)
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code
    info = status()
    if amend is not None:
        amend(args, info)
    if args.json:
        print(json.dumps(info, indent=2, sort_keys=True, separators=(",", ": ")))
    else:
        print(render(info))
    return EXIT_EXPOSED if info["exposed"] else EXIT_SAFE
