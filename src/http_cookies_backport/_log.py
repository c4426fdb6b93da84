"""Log what ``patch()``/``unpatch()`` did through :mod:`logging`, so it shows in the app's logs.

Why: a fix applied at start-up is otherwise invisible. Logger
``http_cookies_backport``: INFO for what changed, WARNING for a binding
left alone because someone else rebound it. The lines, and the start-up
report that waits for the app's logging set-up, are
``_cpython_security._logging``'s.
"""

from _cpython_security import _logging
from _cpython_security._report import failure

__all__ = ["logger", "log_report", "LEFT_ALONE"]

#: The skip reason of a binding someone else changed since ``patch()``: a warning.
LEFT_ALONE = failure("rebound by someone else since: left alone")

_NAME = __name__.rpartition(".")[0]


def logger():
    """The package's logger (imports :mod:`logging` on the first call)."""
    return _logging.get_logger(_NAME)


def log_report(action, report, at_startup=False):
    """Log *report* (a PatchReport) of *action* (``"patch"`` or ``"unpatch"``)."""
    _logging.log_report(_NAME, action, report, at_startup)
