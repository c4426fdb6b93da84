"""Log what ``patch()``/``unpatch()`` did through :mod:`logging`, so it shows in the app's logs.

Logger ``urllib_parse_backport``: INFO for what changed, WARNING for each
target that could not be checked or patched. An app without logging
configured shows WARNING only, on every interpreter; the report of start-up
activation waits for the app's logging set-up (``_cpython_security._logging``).
"""

from _cpython_security._logging import INFO, WARNING, log
from _cpython_security._report import FAILURE, kind_of

__all__ = ["log_report"]


def log_report(action, report, at_startup=False):
    """Log *report* (a PatchReport) of *action* (``"patch"``, ``"unpatch"``, ...)."""
    lines = []
    if report.changed:
        lines.append((INFO, "%s: changed %s" % (action, ", ".join(report.changed))))
    elif not report.skipped:
        lines.append((INFO, "%s: nothing to change" % action))
    fixes = getattr(report, "fixes", None) or {}
    if fixes:
        lines.append((INFO, "%s: %s" % (action, ", ".join(
            "%s %s" % (cve, fixes[cve]) for cve in sorted(fixes)))))
    for cve in sorted(cve for cve in fixes if fixes[cve] == "left out"):
        lines.append((WARNING, "%s: %s left out: this process stays exposed to it"
                      % (action, cve)))
    for name, reason in report.skipped:
        if kind_of(reason) == FAILURE:
            lines.append((WARNING, "%s: %s not patched: %s" % (action, name, reason)))
        else:
            lines.append((INFO, "%s: %s left alone: %s" % (action, name, reason)))
    log(__name__.rpartition(".")[0], lines, at_startup)
