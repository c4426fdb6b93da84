"""Start-up activation: what the ``.pth`` file runs when the operator set a variable.

``URLLIB_PARSE_BACKPORT_PATCH``: ``1``/``true``/``yes``/``on`` -> ``patch()``;
``force`` -> ``patch(force=True)``; ``frameworks`` -> ``patch(frameworks=True)``;
``0``/``false``/``no``/``off``/empty -> nothing. Why never silent: a typo or a
failure that left the process unpatched would look like protection, so any
other value, an exception, and a ``PYTHON_URLLIB_QS_SEPARATOR`` that will make
every parse raise each print one line on stderr. None of them stops the process.
The ``.pth`` line calls :func:`run` once per process, even where ``site``
reads site-packages twice (see ``tools/make_pth.py``).
"""

import os
import sys

from . import _policy
from ._api import patch
from ._status import ACTIVATION_VARIABLE

__all__ = ["run", "choice", "ACCEPTED"]

_PACKAGE = __name__.rpartition(".")[0]
_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")
_ARGUMENTS = {"patch": {}, "force": {"force": True}, "frameworks": {"frameworks": True}}

#: The accepted values, as the error line names them.
ACCEPTED = "1/true/yes/on, force, frameworks (patch) or 0/false/no/off/empty (nothing)"


def choice(value):
    """What *value* of the variable asks for: ``patch``, ``force``, ``frameworks``,
    ``off`` or ``invalid`` (case-insensitive, stripped)."""
    value = (value or "").strip().lower()
    if value in _OFF:
        return "off"
    if value in _ON:
        return "patch"
    if value in _ARGUMENTS:
        return value
    return "invalid"


def run(environ=None, stream=None):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None."""
    environ = os.environ if environ is None else environ
    stream = sys.stderr if stream is None else stream
    try:
        trouble = _policy.problem()
        if trouble is not None:
            stream.write("%s: %s\n" % (_PACKAGE, trouble))
        value = environ.get(ACTIVATION_VARIABLE)
        wanted = choice(value)
        if wanted == "invalid":
            stream.write("%s: ignoring %s=%r: accepted values are %s; nothing was patched\n"
                         % (_PACKAGE, ACTIVATION_VARIABLE, value, ACCEPTED))
            return None
        if wanted == "off":
            return None
        return patch(**_ARGUMENTS[wanted])
    except Exception as exc:  # never stop the process from starting, never silently
        stream.write("%s: start-up activation failed: %s: %s\n"
                     % (_PACKAGE, type(exc).__name__, exc))
        return None
