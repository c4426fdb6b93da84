"""PatchReport: what one ``patch()`` or ``unpatch()`` call did, in the shape both packages share.

Why: callers, logs and ``status()`` read the same fields from both packages;
a package adds its own fields with :meth:`PatchReport.extra` (ctypes_safe's
``mode``).
"""

__all__ = ["PatchReport"]


class PatchReport(object):
    """What one ``patch()`` or ``unpatch()`` call changed and what it left alone.

    ``changed``: names (``module.attribute``) this call replaced or restored.
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

    def extra(self):
        """``[(name, value)]``: a package's own fields, in ``as_dict()`` and the repr."""
        return []

    def as_dict(self):
        """The report as plain data, for ``--json``, ``status()`` and logs."""
        data = {
            "forced": self.forced,
            "changed": list(self.changed),
            "skipped": [{"target": name, "reason": reason} for name, reason in self.skipped],
        }
        data.update(self.extra())
        return data

    def __repr__(self):
        fields = ["%s=%r" % pair for pair in self.extra()]
        fields += ["changed=%r" % (self.changed,), "skipped=%r" % (self.skipped,)]
        return "<PatchReport %s>" % " ".join(fields)
