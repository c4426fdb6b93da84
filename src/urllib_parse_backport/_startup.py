"""Start-up activation: what the ``.pth`` file runs when the operator set a variable.

``URLLIB_PARSE_BACKPORT_PATCH``: ``1``/``true``/``yes``/``on`` -> ``patch()``;
``force`` -> ``patch(force=True)``; ``frameworks`` -> ``patch(frameworks=True)``;
``0``/``false``/``no``/``off``/empty -> nothing. Why never silent: a typo or a
failure that left the process unpatched would look like protection, so any
other value, an exception, and a ``PYTHON_URLLIB_QS_SEPARATOR`` that will make
every parse raise each print one line on stderr. None of them stops the process.
"""

import os
import sys

from . import _policy
from ._api import patch
from ._status import ACTIVATION_VARIABLE

__all__ = ["run", "ACCEPTED"]

_PACKAGE = __name__.rpartition(".")[0]
_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")
_CHOICES = {"force": {"force": True}, "frameworks": {"frameworks": True}}
_CHOICES.update((value, {}) for value in _ON)

#: The accepted values, as the error line names them.
ACCEPTED = "1/true/yes/on, force, frameworks (patch) or 0/false/no/off/empty (nothing)"


def run(environ=None, stream=None):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None."""
    environ = os.environ if environ is None else environ
    stream = sys.stderr if stream is None else stream
    try:
        trouble = _policy.problem()
        if trouble is not None:
            stream.write("%s: %s\n" % (_PACKAGE, trouble))
        value = environ.get(ACTIVATION_VARIABLE)
        choice = (value or "").strip().lower()
        if choice in _OFF:
            return None
        if choice not in _CHOICES:
            stream.write("%s: ignoring %s=%r: accepted values are %s; nothing was patched\n"
                         % (_PACKAGE, ACTIVATION_VARIABLE, value, ACCEPTED))
            return None
        return patch(**_CHOICES[choice])
    except Exception as exc:  # never stop the process from starting, never silently
        stream.write("%s: start-up activation failed: %s: %s\n"
                     % (_PACKAGE, type(exc).__name__, exc))
        return None
