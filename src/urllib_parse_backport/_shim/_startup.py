"""Start-up activation: what the ``.pth`` file runs when the operator set a variable.

``URLLIB_PARSE_BACKPORT_PATCH``: ``1``/``true``/``yes``/``on`` -> ``patch()``;
``force`` -> ``patch(force=True)``; ``frameworks`` -> ``patch(frameworks=True)``;
``0``/``false``/``no``/``off``/empty -> nothing. Never silent: any other
value, an exception, and a ``PYTHON_URLLIB_QS_SEPARATOR`` that will make
every parse raise each print one line on stderr; none stops the process (the
switch itself is shared with ctypes_safe: ``_cpython_security._switch``).
The ``.pth`` line calls :func:`run` once per process, even where ``site``
reads site-packages twice (see ``tools/make_pth.py``).
"""

from _cpython_security._switch import StartupSwitch

from .. import _policy
from ._api import ACTIVATION_VARIABLE, patch

__all__ = ["run", "choice", "ACCEPTED"]

SWITCH = StartupSwitch(__name__.split(".")[0], ACTIVATION_VARIABLE,
                       [("force", {"force": True}), ("frameworks", {"frameworks": True})])
#: The accepted values, as the error line names them.
ACCEPTED = SWITCH.accepted
choice = SWITCH.choice


def _policy_problem():
    trouble = _policy.problem()
    return [] if trouble is None else [trouble]


def run(environ=None, stream=None):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None."""
    return SWITCH.run(patch, environ, stream, notes=_policy_problem)
