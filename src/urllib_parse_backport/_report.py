"""PatchReport: what one ``patch()`` or ``unpatch()`` call did, in the shape both packages share."""

__all__ = ["PatchReport"]


class PatchReport(object):
    """What one ``patch()`` or ``unpatch()`` call changed and what it left alone.

    ``changed``: names (``module.attribute``) this call bound to the fixed
    parser, or restored; aliases and in-place code swaps are marked as such.
    ``skipped``: ``(name, reason)`` pairs. ``forced``: ``patch(force=True)``.
    True when something changed.
    """

    def __init__(self, forced=False):
        self.forced = bool(forced)
        self.changed = []
        self.skipped = []

    def __bool__(self):
        return bool(self.changed)

    __nonzero__ = __bool__

    def as_dict(self):
        """The report as plain data, for ``--json``, ``status()`` and logs."""
        return {
            "forced": self.forced,
            "changed": list(self.changed),
            "skipped": [{"target": name, "reason": reason} for name, reason in self.skipped],
        }

    def __repr__(self):
        return "<PatchReport changed=%r skipped=%r>" % (self.changed, self.skipped)
