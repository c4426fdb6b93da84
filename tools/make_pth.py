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
The files, their packages and variables come from ``_cpython_security._registry``:
a row of a new package is a new file, a package no row names loses its file.
Usage: ``python tools/make_pth.py [--check]``.
"""

from __future__ import print_function

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
#: The file of the umbrella switch, ``CPYTHON_SECURITY_PATCH``, which starts every package's.
UMBRELLA = "cpython_security_patch.pth"


def _registry():
    """``_cpython_security._registry`` from the source tree (it imports only os and sys)."""
    sys.path.insert(0, SRC)
    try:
        from _cpython_security import _registry
    finally:
        sys.path.remove(SRC)
    return _registry


def pth_files(registry=None):
    """``{file name: (package, Python condition under which the line acts)}``, from the
    registry (package None: the umbrella): each package's variable, and the other
    variables whose presence alone runs its switch."""
    registry = registry or _registry()
    found = {UMBRELLA: (None, 'os.environ.get("CPYTHON_SECURITY_PATCH")')}
    for package in registry.PACKAGES:
        fix = registry.BY_PACKAGE[package]
        condition = 'os.environ.get("%s")' % fix.variable
        if fix.also_variables:
            condition = "(%s%s)" % (condition, "".join(
                ' or "%s" in os.environ' % name for name in fix.also_variables))
        found[fix.pth] = (package, condition)
    return found


PTH_FILES = pth_files()


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
        path = os.path.join(SRC, name)
        current = None
        if os.path.exists(path):
            with open(path) as handle:
                current = handle.read()
        if current != pth_line(name):
            if "--check" in argv:
                stale.append(name)
            else:
                with open(path, "w") as handle:
                    handle.write(pth_line(name))
    for name in sorted(os.listdir(SRC)):
        if name.endswith(".pth") and name not in PTH_FILES:  # a package no row has any more
            if "--check" in argv:
                stale.append(name)
            else:
                os.remove(os.path.join(SRC, name))
    if stale:
        print("stale .pth files (run python tools/make_pth.py): %s" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
