"""Log what ``patch()``/``unpatch()`` did through :mod:`logging`, so it shows in the app's logs.

Why: a fix applied at start-up is otherwise invisible. Logger ``ctypes_safe``:
INFO for what changed (and the mode), WARNING for each failure, such as a
slot check that failed. An app without logging configured shows WARNING
only, on every interpreter; the lines, and the start-up report that waits
for the app's logging set-up, are ``_cpython_security._logging``'s.
"""

from _cpython_security import _logging

__all__ = ["logger", "log_report"]

_NAME = __name__.rpartition(".")[0]


def logger():
    """The package's logger (imports :mod:`logging` on the first call, looked up once)."""
    return _logging.get_logger(_NAME)


def log_report(action, report, at_startup=False):
    """Log *report* (a PatchReport) of *action* (``"patch"`` or ``"unpatch"``), naming
    the mode the fix went in with."""
    _logging.log_report(_NAME, action, report, at_startup,
                        heading="%s (%s mode)" % (action, report.mode))
