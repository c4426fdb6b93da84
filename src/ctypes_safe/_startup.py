"""Start-up activation: what ``ctypes_safe_patch.pth`` runs when ``CTYPES_SAFE_PATCH`` is set.

``1``/``true``/``yes``/``on`` -> ``patch()``; ``force`` -> ``patch(force=True)``;
``0``/``false``/``no``/``off``/empty -> nothing (case-insensitive, stripped).
Why never silent: a typo or a failure that left the process unpatched would
look like protection, so any other value and any exception print one line on
stderr. Neither stops the process.
The ``.pth`` line calls :func:`run` once per process, even where ``site``
reads site-packages twice (see ``tools/make_pth.py``).
"""

import os
import sys

from ._api import ACTIVATION_VARIABLE, patch

__all__ = ["run", "choice", "ACCEPTED"]

_PACKAGE = __name__.rpartition(".")[0]
_ON = ("1", "true", "yes", "on")
_OFF = ("", "0", "false", "no", "off")

#: The accepted values, as the error line names them.
ACCEPTED = "1/true/yes/on, force (patch) or 0/false/no/off/empty (nothing)"


def choice(value):
    """What *value* of the variable asks for: ``patch``, ``force``, ``off`` or ``invalid``."""
    value = (value or "").strip().lower()
    if value in _OFF:
        return "off"
    if value in _ON:
        return "patch"
    if value == "force":
        return "force"
    return "invalid"


def run(environ=None, stream=None):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None."""
    environ = os.environ if environ is None else environ
    stream = sys.stderr if stream is None else stream
    try:
        value = environ.get(ACTIVATION_VARIABLE)
        wanted = choice(value)
        if wanted == "invalid":
            stream.write("%s: ignoring %s=%r: accepted values are %s; nothing was patched\n"
                         % (_PACKAGE, ACTIVATION_VARIABLE, value, ACCEPTED))
            return None
        if wanted == "off":
            return None
        return patch(force=wanted == "force")
    except Exception as exc:  # never stop the process from starting, never silently
        stream.write("%s: start-up activation failed: %s: %s\n"
                     % (_PACKAGE, type(exc).__name__, exc))
        return None
