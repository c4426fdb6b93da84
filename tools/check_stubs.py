"""Type-check every fix package's stubs, and its example of use, with ``mypy --strict``.

The packages are ``_cpython_security._registry``'s and ``cpython_security``: each one's
``.pyi`` files
(subpackages included) and ``tests/test_PACKAGE/typing_PACKAGE.py``, an
example that uses the public names as an application would (it runs as an
ordinary module too). A fix package with no stubs fails: its public names
would reach type checkers as ``Any``. Run by the lint environment (tox.ini);
usage: ``python tools/check_stubs.py [MYPY OPTIONS]``.
"""

from __future__ import print_function

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")


def packages():
    """The registry's packages, read from the source tree (it imports only os and sys)."""
    sys.path.insert(0, SRC)
    try:
        from _cpython_security._registry import PACKAGES
    finally:
        sys.path.remove(SRC)
    return PACKAGES


def files(names):
    """``(stubs and examples, problems)`` of the packages *names*, paths relative to ROOT."""
    found, problems = [], []
    for package in names:
        stubs = []
        for directory, folders, names_here in os.walk(os.path.join(SRC, package)):
            folders.sort()
            stubs.extend(os.path.relpath(os.path.join(directory, name), ROOT)
                         for name in sorted(names_here) if name.endswith(".pyi"))
        example = os.path.join("tests", "test_" + package, "typing_%s.py" % package)
        if not stubs:
            problems.append("%s has no .pyi stubs" % package)
        if not os.path.isfile(os.path.join(ROOT, example)):
            problems.append("%s has no example of use: %s" % (package, example))
        else:
            stubs.append(example)
        found.extend(stubs)
    return found, problems


#: The public package beside the fix packages: the umbrella in code.
UMBRELLA = "cpython_security"


def main(argv):
    found, problems = files(tuple(packages()) + (UMBRELLA,))
    if problems:
        print("check_stubs: " + "; ".join(problems), file=sys.stderr)
        return 1
    return subprocess.call([sys.executable, "-m", "mypy", "--strict"] + list(argv) + found,
                           cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
