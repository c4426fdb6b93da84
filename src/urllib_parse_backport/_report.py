"""PatchReport: what one ``patch()`` or ``unpatch()`` call did (the shape both packages share)."""

from _cpython_security import _report
from _cpython_security._report import failure  # noqa: F401 (the package's one import of it)

__all__ = ["PatchReport", "failure"]


class PatchReport(_report.PatchReport):
    """What one ``patch()`` or ``unpatch()`` call changed and what it left alone.

    ``changed``: names (``module.attribute``) this call bound to the fixed
    parser, or restored; aliases and in-place code swaps are marked as such.
    ``skipped``: ``(name, reason)`` pairs. ``forced``: ``patch(force=True)``.
    ``fixes``: ``{CVE: state}`` for a ``patch()`` that patched, each fix
    ``"applied"``, ``"not needed"`` (the interpreter has it), ``"left out"``
    (``leave_out``) or ``"unchecked"`` (its probe failed: see ``skipped``).
    True when something changed.
    """

    def __init__(self, forced=False):
        super(PatchReport, self).__init__(forced)
        self.fixes = {}

    def extra(self):
        return [("fixes", dict(self.fixes))] if self.fixes else []
