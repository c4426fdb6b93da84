"""PatchReport: what one ``patch()`` or ``unpatch()`` call did, in the shape both packages share.

Why: callers, logs and ``status()`` read the same fields from both packages;
ctypes_safe adds ``mode``, which way its repr fix went in (slot or converter).
"""

__all__ = ["PatchReport"]


class PatchReport(object):
    """What one ``patch()`` or ``unpatch()`` call changed and what it left alone.

    ``changed``: names (``module.attribute``) this call replaced or restored,
    such as ``"_ctypes.CArgObject.tp_repr"`` or ``"ctypes.c_double.from_param"``.
    ``skipped``: ``(name, reason)`` pairs. ``forced``: ``patch(force=True)``.
    ``mode``: ``"slot"``, ``"converter"`` or None (nothing changed). True when
    something changed.
    """

    def __init__(self, forced=False):
        self.forced = bool(forced)
        self.changed = []
        self.skipped = []
        self.mode = None

    def __bool__(self):
        return bool(self.changed)

    __nonzero__ = __bool__

    def as_dict(self):
        """The report as plain data, for ``--json``, ``status()`` and logs."""
        return {
            "forced": self.forced,
            "changed": list(self.changed),
            "skipped": [{"target": name, "reason": reason} for name, reason in self.skipped],
            "mode": self.mode,
        }

    def __repr__(self):
        return "<PatchReport mode=%r changed=%r skipped=%r>" % (
            self.mode, self.changed, self.skipped)
