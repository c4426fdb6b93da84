"""PatchReport: what one ``patch()`` or ``unpatch()`` call did, in the shape both packages share.

Why: callers, logs and ``status()`` read the same fields from both packages;
a package adds its own fields with :meth:`PatchReport.extra` (the ctypes fix's
``mode``).
"""

__all__ = ["PatchReport", "Reason", "failure", "LEFT_ALONE", "FAILURE"]

#: The kinds of a skip: the target did not need the fix (or waits for an
#: import), or it could not be checked or patched. Logs (INFO or WARNING),
#: verdicts and ``--json`` read the kind, never the wording.
LEFT_ALONE, FAILURE = "left alone", "failure"

_TEXT = type(u"")


class Reason(_TEXT):
    """A skip reason: text (compares equal to its wording), with its ``kind``."""

    def __new__(cls, text, kind=LEFT_ALONE):
        if isinstance(text, bytes):  # 2.7: a native str reason
            text = text.decode("utf-8", "replace")
        self = _TEXT.__new__(cls, text)
        self.kind = kind
        return self


def failure(text):
    """The reason of a target that could not be checked or patched."""
    return Reason(text, FAILURE)


def kind_of(reason):
    """The kind of a skip *reason*: a plain string is one left alone."""
    return getattr(reason, "kind", LEFT_ALONE)


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
            "skipped": [{"target": name, "reason": _TEXT(reason), "kind": kind_of(reason)}
                        for name, reason in self.skipped],
        }
        data.update(self.extra())
        return data

    def __repr__(self):
        fields = ["%s=%r" % pair for pair in self.extra()]
        fields += ["changed=%r" % (self.changed,), "skipped=%r" % (self.skipped,)]
        return "<PatchReport %s>" % " ".join(fields)
