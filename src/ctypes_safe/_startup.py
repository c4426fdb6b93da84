"""Start-up activation: what ``ctypes_safe_patch.pth`` asks for once ctypes is imported.

``CTYPES_SAFE_PATCH``: ``1``/``true``/``yes``/``on`` -> ``patch()``; ``force``
-> ``patch(force=True)``; ``0``/``false``/``no``/``off``/empty -> nothing
(case-insensitive, stripped). The ``.pth`` line runs
``_cpython_security._startup``, which reads the variable at start-up (any
other value prints one line on stderr) and calls :func:`run` when ctypes is
imported and its repr is the unfixed one, so a process that never imports
ctypes never imports this package. Never silent: an exception prints one
line on stderr and does not stop the process.
"""

from _cpython_security._startup import SWITCHES

from ._api import patch

__all__ = ["run", "choice", "ACCEPTED"]

SWITCH = SWITCHES[__name__.split(".")[0]]
#: The accepted values, as the error line names them.
ACCEPTED = SWITCH.accepted
choice = SWITCH.choice


def _patch(**options):
    return patch(_at_startup=True, **options)


def run(environ=None, stream=None, just_imported=()):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None.

    The report is logged once the application has configured logging.
    (*just_imported*: as for the shim's; ctypes_safe scans no module.)"""
    return SWITCH.run(_patch, environ, stream)
