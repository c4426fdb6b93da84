"""Start-up activation: what ``http_cookies_backport_patch.pth`` asks for on a cookie import.

``HTTP_COOKIES_BACKPORT_PATCH``: ``1``/``true``/``yes``/``on`` -> ``patch()``;
``force`` -> ``patch(force=True)``; ``0``/``false``/``no``/``off``/empty ->
nothing (case-insensitive, stripped). The ``.pth`` line runs
``_cpython_security._startup``, which reads the variable at start-up (any
other value prints one line on stderr) and calls :func:`run` when
``http.cookies`` (2.7: ``Cookie``) is imported and its ``_unquote`` is the
quadratic one, so a process that never parses a cookie never imports this
package. Never silent: an exception prints one line on stderr and does not
stop the process.
"""

from _cpython_security._startup import SWITCHES

from ._api import patch

__all__ = ["run", "choice", "ACCEPTED"]

SWITCH = SWITCHES[__name__.split(".")[0]]
#: The accepted values, as the error line names them.
ACCEPTED = SWITCH.accepted
choice = SWITCH.choice


def run(environ=None, stream=None, just_imported=()):
    """Apply what *environ* (default ``os.environ``) asks for; return the report or None.

    The report is logged once the application has configured logging.
    *just_imported*: the modules whose first import has just finished."""
    def start_up_patch(**options):
        return patch(_at_startup=True, _just_imported=just_imported, **options)

    return SWITCH.run(start_up_patch, environ, stream)
