"""Write (or, with --check, verify) the distribution's one start-up ``.pth`` file.

Every switch starts from one line at the root of site-packages: a plain
expression that, only when one of the start-up variables is set (the
umbrella's, a package's own, or a variable whose presence alone runs a
package's switch), imports ``_cpython_security._startup`` and calls
``from_pth_env()``, which runs each switch asked for once per process (even
where ``site`` reads site-packages twice: a virtualenv's 2.7 ``site.py``, 3.13
venvs), checks the values now and patches when the modules the fixes are for
are imported.

Why one file, not one per package: ``site`` opens, reads and compiles every
``.pth`` file in every process, variable set or not (docs/performance.rst
has what eleven files cost, and one). Why a plain expression: an ``eval(compile(...))`` with a
``try`` in it costs the first ``compile()`` of the process, 0.7 ms on 2.7 and
1.5 ms on 3.13. ``from_pth_env`` never raises; if ``_cpython_security``
itself cannot be imported, ``site`` prints its own error for the line and the
process goes on. The variables come from ``_cpython_security._registry``; any
other ``.pth`` file in ``src/`` is stale and removed.
Usage: ``python tools/make_pth.py [--check]``.
"""

from __future__ import print_function

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
#: The one start-up file.
PTH_FILE = "cpython_security_patch.pth"  # _selfcheck.PTH_FILE says the same


def _registry():
    """``_cpython_security._registry`` from the source tree (it imports only os and sys)."""
    sys.path.insert(0, SRC)
    try:
        from _cpython_security import _registry
    finally:
        sys.path.remove(SRC)
    return _registry


def pth_line(registry=None):
    """The one line of the start-up file: the umbrella's variable and every
    package's, from the registry (a variable named twice is listed once), then
    the variables whose presence alone runs a switch."""
    registry = registry or _registry()
    variables, present = ["CPYTHON_SECURITY_PATCH"], []
    for package in registry.PACKAGES:
        fix = registry.BY_PACKAGE[package]
        variables += [fix.variable] if fix.variable not in variables else []
        present += [name for name in fix.also_variables if name not in present]
    condition = "any(map(os.environ.get, (%s)))" % ", ".join('"%s"' % name for name in variables)
    if present:
        condition = "(%s%s)" % (condition, "".join(' or "%s" in os.environ' % name
                                                   for name in present))
    return ('import os; %s and __import__("_cpython_security._startup", None, None, '
            '("from_pth_env",)).from_pth_env()\n' % condition)


def main(argv):
    stale = []
    path = os.path.join(SRC, PTH_FILE)
    current = None
    if os.path.exists(path):
        with open(path) as handle:
            current = handle.read()
    if current != pth_line():
        if "--check" in argv:
            stale.append(PTH_FILE)
        else:
            with open(path, "w") as handle:
                handle.write(pth_line())
    for name in sorted(os.listdir(SRC)):
        if name.endswith(".pth") and name != PTH_FILE:  # one per package, before 1.0.0
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
