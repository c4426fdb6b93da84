"""Log what ``patch()``/``unpatch()`` did through :mod:`logging`, so it shows in the app's logs.

Why: a fix applied at start-up is otherwise invisible. Logger ``ctypes_safe``:
INFO for what changed (and the mode), WARNING for each failure, such as a
slot check that failed. :mod:`logging` is imported on first use, so importing
the package stays cheap; an app without logging configured shows WARNING only.
"""

__all__ = ["logger", "log_report", "FAILURES"]

#: Skip reasons that mean "could not check or patch", not "did not need it".
FAILURES = ("slot check failed", "rebound by someone else")


def logger():
    """The package's logger (imports :mod:`logging` on the first call)."""
    import logging
    return logging.getLogger(__name__.rpartition(".")[0])


def log_report(action, report):
    """Log *report* (a PatchReport) of *action* (``"patch"`` or ``"unpatch"``)."""
    log = logger()
    if report.changed:
        log.info("%s (%s mode): %s %s", action, report.mode,
                 "restored" if action == "unpatch" else "replaced", ", ".join(report.changed))
    for name, reason in report.skipped:
        if reason.startswith(FAILURES):
            log.warning("%s: %s: %s", action, name, reason)
        elif not report.changed:
            log.info("%s: nothing to patch: %s: %s", action, name, reason)
    if not report.changed and not report.skipped:
        log.info("%s: nothing to change", action)
