"""Start-up activation: what ``ctypes_safe_patch.pth`` runs when ``CTYPES_SAFE_PATCH`` is set.

``1``/``true``/``yes``/``on`` -> ``patch()``; ``force`` -> ``patch(force=True)``;
``0``/``false``/``no``/``off``/empty -> nothing (case-insensitive, stripped).
Never silent: any other value and any exception print one line on stderr;
neither stops the process (the switch itself is shared with
urllib_parse_backport: ``_cpython_security._switch``). The ``.pth`` line
calls :func:`run` once per process, even where ``site`` reads site-packages
twice (see ``tools/make_pth.py``).
"""

from _cpython_security._switch import StartupSwitch

from ._api import ACTIVATION_VARIABLE, patch

__all__ = ["run", "choice", "ACCEPTED"]

SWITCH = StartupSwitch(__name__.split(".")[0], ACTIVATION_VARIABLE, [("force", {"force": True})])
#: The accepted values, as the error line names them.
ACCEPTED = SWITCH.accepted
choice = SWITCH.choice


def run(environ=None, stream=None):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None."""
    return SWITCH.run(patch, environ, stream)
