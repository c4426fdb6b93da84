"""Log what ``patch()``/``unpatch()`` did through :mod:`logging`, so it shows in the app's logs.

Logger ``urllib_parse_backport``: INFO for what changed, WARNING for each
target that could not be checked or patched. An app without logging
configured stays quiet (the stdlib's last-resort handler shows WARNING only).
:mod:`logging` is imported on first use: importing the package stays cheap.
"""

__all__ = ["log_report", "FAILURES"]

#: Skip reasons that mean "could not check or patch", not "did not need it".
FAILURES = ("import failed", "assessment failed", "adapter failed", "unsupported signature",
            "unrecognised parser", "rebound by someone else")


def log_report(action, report):
    """Log *report* (a PatchReport) of *action* (``"patch"``, ``"unpatch"``, ...)."""
    import logging
    logger = logging.getLogger(__name__.rpartition(".")[0])
    if report.changed:
        logger.info("%s: changed %s", action, ", ".join(report.changed))
    elif not report.skipped:
        logger.info("%s: nothing to change", action)
    for name, reason in report.skipped:
        if reason.startswith(FAILURES):
            logger.warning("%s: %s not patched: %s", action, name, reason)
        else:
            logger.info("%s: %s left alone: %s", action, name, reason)
