"""Write (or, with --check, verify) the start-up ``.pth`` files from one template.

Every package starts the same way: a one-line ``.pth`` file at the root of
site-packages that, only when the package's variable is set, imports
``_cpython_security._startup`` and calls ``from_pth(package)``, which runs
once per process (even where ``site`` reads site-packages twice: a
virtualenv's 2.7 ``site.py``, 3.13 venvs), checks the value now and patches
when the modules the fix is for are imported. The line is a plain expression:
an ``eval(compile(...))`` with a ``try`` in it costs the first ``compile()`` of
the process, 0.7 ms on 2.7 and 1.5 ms on 3.13, in every process the variable
reaches. ``from_pth`` never raises; if ``_cpython_security`` itself cannot be
imported, ``site`` prints its own error for the line and the process goes on.
Usage: ``python tools/make_pth.py [--check]``.
"""

from __future__ import print_function

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: file name -> (package, Python condition under which the line acts); package None:
#: the umbrella switch, ``CPYTHON_SECURITY_PATCH``, which starts every package's switch.
PTH_FILES = {
    "cpython_security_patch.pth": (None, 'os.environ.get("CPYTHON_SECURITY_PATCH")'),
    "urllib_parse_backport_shim.pth": (
        "urllib_parse_backport",
        '(os.environ.get("URLLIB_PARSE_BACKPORT_PATCH") '
        'or "PYTHON_URLLIB_QS_SEPARATOR" in os.environ)'),
    "ctypes_safe_patch.pth": ("ctypes_safe", 'os.environ.get("CTYPES_SAFE_PATCH")'),
    "http_cookies_backport_patch.pth": (
        "http_cookies_backport", 'os.environ.get("HTTP_COOKIES_BACKPORT_PATCH")'),
}


def pth_line(name):
    """The one line of the ``.pth`` file *name*."""
    package, condition = PTH_FILES[name]
    if package is None:
        return ('import os; %s and __import__("_cpython_security._startup", None, None, '
                '("from_pth_all",)).from_pth_all()\n' % condition)
    return ('import os; %s and __import__("_cpython_security._startup", None, None, '
            '("from_pth",)).from_pth("%s")\n' % (condition, package))


def main(argv):
    stale = []
    for name in sorted(PTH_FILES):
        path = os.path.join(ROOT, "src", name)
        with open(path) as handle:
            current = handle.read()
        if current != pth_line(name):
            if "--check" in argv:
                stale.append(name)
            else:
                with open(path, "w") as handle:
                    handle.write(pth_line(name))
    if stale:
        print("stale .pth files (run python tools/make_pth.py): %s" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
