"""PatchReport: what one ``patch()`` or ``unpatch()`` call did (the shape both packages share)."""

from _cpython_security import _report

__all__ = ["PatchReport"]


class PatchReport(_report.PatchReport):
    """What one ``patch()`` or ``unpatch()`` call changed and what it left alone.

    ``changed``: names (``module.attribute``) this call bound to the fixed
    parser, or restored; aliases and in-place code swaps are marked as such.
    ``skipped``: ``(name, reason)`` pairs. ``forced``: ``patch(force=True)``.
    True when something changed.
    """
