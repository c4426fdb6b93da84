"""Shared data for the idna_backport tests: the stdlib module, the fix bound by hand, work.

*The fix bound by hand*: :func:`bound` binds ``replacements(module)`` of
the fix module in ``encodings.idna`` itself and puts the originals back,
for a stock/fixed comparison inside one test (the names are those
``patch(force=True)`` binds; the ``idna_fixed`` fixture calls that).

*Work* stands for CPU time without measuring time: the number of Python
function calls a call makes (``sys.setprofile``), and among them the calls
of ``stringprep.in_table_d2``, the bidi check the unfixed ``nameprep``
repeats once per right-to-left character (gh-98433).

*The reference* is Debian 12's ``python3.11`` (3.11.2): its ``nameprep``
is the fixed loop (3.11.1 has gh-98433's backport), its ``ToUnicode`` has
no 1024-character bound (3.12's alone).
"""

import contextlib
import json
import os
import subprocess
import gc
import sys

import encodings.idna as stdlib_idna

from idna_backport import _idna as fix
from reference import REFERENCE  # Debian 12's python3.11, probed

PY2 = sys.version_info[0] == 2
HERE = os.path.dirname(os.path.abspath(__file__))

#: The stock functions, read before any test binds anything.
STOCK = dict((name, vars(stdlib_idna)[name]) for name in ("nameprep", "ToUnicode", "ToASCII"))


def module():
    """``encodings.idna``, the module the codec registry's ``idna`` entry runs."""
    return stdlib_idna


@contextlib.contextmanager
def bound():
    """The fix's replacements bound in ``encodings.idna`` while the block runs."""
    new = fix.replacements(stdlib_idna)
    old = dict((name, vars(stdlib_idna)[name]) for name in new)
    for name, function in new.items():
        setattr(stdlib_idna, name, function)
    try:
        yield new
    finally:
        for name, function in old.items():
            setattr(stdlib_idna, name, function)


def work(function, *args):
    """``(Python calls, in_table_d2 calls, outcome)`` of ``function(*args)``."""
    counts = [0, 0]

    def profile(frame, event, arg):
        if event == "call":
            counts[0] += 1
            if frame.f_code.co_name == "in_table_d2":
                counts[1] += 1

    # No collection while counting: a finalizer or weakref callback of an earlier test's
    # garbage would count as a call of the function's (seen once on 3.12 in CI).
    collecting = gc.isenabled()
    gc.disable()
    sys.setprofile(profile)
    try:
        result = outcome(function, *args)
    finally:
        sys.setprofile(None)
        if collecting:
            gc.enable()
    return counts[0], counts[1], result


def outcome(function, *args):
    """``("ok", type, value)`` or ``("error", type name, message)`` of ``function(*args)``."""
    try:
        value = function(*args)
    except Exception as exc:  # noqa: B902 - the outcome is what is compared
        return ("error", type(exc).__name__, str(exc))
    return ("ok", type(value), value)


def text(value):
    """A codec result as text: 2.7's encode gives ``str`` (bytes), 3.x's ``bytes``."""
    return value.decode("ascii") if isinstance(value, bytes) else value


class Reference(object):
    """A ``python3.11`` child running the ``idna`` codec: :meth:`run` ``[(op, text)]``."""

    def __init__(self):
        self.process = subprocess.Popen(
            [REFERENCE, "-I", os.path.join(HERE, "idna_reference_child.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, cases):
        """``[[True, text] or [False, None]]``: each case's result, or that it failed."""
        self.process.stdin.write(json.dumps(cases).encode("ascii") + b"\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline().decode("ascii"))

    def close(self):
        self.process.stdin.close()
        self.process.wait()
