"""Other interpreters of the matrix, for a test that runs one as a child.

Why: a test environment of 3.8+ checks what an older interpreter writes
where the checking library does not install on that interpreter (the VEX
validators on 2.7 and 3.6). The interpreters are pyenv's, as tools/matrix
finds them, or ``pythonX.Y`` on ``PATH``. As with the reference interpreter
(``reference.py``), a test that needs one skips where none is installed,
but fails inside a tox environment (``BACKPORT_TEST_REQUIREMENTS`` set),
whose machine must have every interpreter of the matrix.
"""

import glob
import os

import pytest

from dependencies import VARIABLE

__all__ = ["find", "needed"]


def find(version):
    """The path of an installed interpreter *version* (``"2.7"``), or None."""
    root = os.environ.get("PYENV_ROOT") or os.path.join(os.path.expanduser("~"), ".pyenv")
    found = sorted(glob.glob(os.path.join(root, "versions", version + ".*", "bin",
                                          "python" + version)))
    if found:
        return found[-1]
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        path = os.path.join(directory, "python" + version)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def needed(version):
    """The path of interpreter *version*; skips the calling test where none is
    installed, or fails it inside a tox environment."""
    path = find(version)
    if path is None:
        message = "no python%s installed (pyenv's or on PATH)" % version
        if os.environ.get(VARIABLE):
            pytest.fail(message + ": every tox environment's machine has it")
        pytest.skip(message)
    return path
