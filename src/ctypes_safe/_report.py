"""PatchReport: what one ``patch()`` or ``unpatch()`` call did (the shape both packages share).

ctypes_safe adds ``mode``: which way its repr fix went in (slot or converter).
"""

from _cpython_security import _report
from _cpython_security._report import failure  # noqa: F401 (the package's one import of it)

__all__ = ["PatchReport", "failure"]


class PatchReport(_report.PatchReport):
    """What one ``patch()`` or ``unpatch()`` call changed and what it left alone.

    ``changed``: names (``module.attribute``) this call replaced or restored,
    such as ``"_ctypes.CArgObject.tp_repr"`` or ``"ctypes.c_double.from_param"``.
    ``skipped``: ``(name, reason)`` pairs. ``forced``: ``patch(force=True)``.
    ``mode``: ``"slot"``, ``"converter"`` or None (nothing changed). True when
    something changed.
    """

    def __init__(self, forced=False):
        _report.PatchReport.__init__(self, forced)
        self.mode = None

    def extra(self):
        return [("mode", self.mode)]
