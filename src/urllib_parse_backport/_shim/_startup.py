"""Start-up activation: what the ``.pth`` switch asks for once a parser is imported.

``URLLIB_PARSE_BACKPORT_PATCH``: ``1``/``true``/``yes``/``on`` -> ``patch()``;
``force`` -> ``patch(force=True)``; ``frameworks`` -> ``patch(frameworks=True)``;
``0``/``false``/``no``/``off``/empty -> nothing. The ``.pth`` line runs
``_cpython_security._startup``, which reads the variables at start-up (a bad
value, and a ``PYTHON_URLLIB_QS_SEPARATOR`` that will make every parse raise,
each print one line on stderr) and calls :func:`run` when the stdlib parser
or python-future's copy is imported and needs the fix (``frameworks``: at
start-up). Never silent: an exception prints one line on stderr and does
not stop the process.
"""

import os

from _cpython_security._startup import SWITCHES, left_out

from .. import _policy
from ._api import patch

__all__ = ["run", "choice", "ACCEPTED", "policy_problem"]

SWITCH = SWITCHES[__name__.split(".")[0]]
#: The accepted values, as the error line names them.
ACCEPTED = SWITCH.accepted
choice = SWITCH.choice


def policy_problem():
    """``[line]`` when the separator setting will make every parse raise, else ``[]``."""
    trouble = _policy.problem()
    return [] if trouble is None else [trouble]


def run(environ=None, stream=None, just_imported=()):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None.

    Modules not imported yet are patched when imported; the report is logged
    once the application has configured logging. *just_imported*: modules
    whose first import has just finished (see ``patch``'s ``_just_imported``).
    The fixes ``CPYTHON_SECURITY_SKIP`` names are left out."""
    environ = os.environ if environ is None else environ
    leave_out = left_out(SWITCH.package, environ)

    def start_up_patch(**options):
        return patch(_at_startup=True, _just_imported=just_imported, leave_out=leave_out,
                     **options)

    return SWITCH.run(start_up_patch, environ, stream)
