"""Log what ``patch()``/``unpatch()`` did through :mod:`logging`, so it shows in the app's logs.

Why: a fix applied at start-up is otherwise invisible. Logger
``http_cookies_backport``: INFO for what changed, WARNING for a binding
left alone because someone else rebound it. The report of start-up
activation waits for the app's logging set-up (``_cpython_security._logging``).
"""

from _cpython_security._logging import INFO, WARNING, get_logger, log
from _cpython_security._report import FAILURE, failure, kind_of

__all__ = ["logger", "log_report", "LEFT_ALONE"]

#: The skip reason of a binding someone else changed since ``patch()``: a warning.
LEFT_ALONE = failure("rebound by someone else since: left alone")

_NAME = __name__.rpartition(".")[0]


def logger():
    """The package's logger (imports :mod:`logging` on the first call)."""
    return get_logger(_NAME)


def log_report(action, report, at_startup=False):
    """Log *report* (a PatchReport) of *action* (``"patch"`` or ``"unpatch"``)."""
    lines = []
    if report.changed:
        lines.append((INFO, "%s: %s %s" % (
            action, "restored" if action == "unpatch" else "replaced",
            ", ".join(report.changed))))
    for name, reason in report.skipped:
        if kind_of(reason) == FAILURE:
            lines.append((WARNING, "%s: %s: %s" % (action, name, reason)))
        elif not report.changed:
            lines.append((INFO, "%s: nothing to patch: %s: %s" % (action, name, reason)))
    if not report.changed and not report.skipped:
        lines.append((INFO, "%s: nothing to change" % action))
    log(_NAME, lines, at_startup)
