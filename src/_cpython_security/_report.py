"""PatchReport: what one ``patch()`` or ``unpatch()`` call did, in the shape both packages share.

Why: callers, logs and ``status()`` read the same fields from both packages;
a package adds its own fields with :meth:`PatchReport.extra` (the ctypes fix's
``mode``).
"""

import os
import sys

__all__ = ["PatchReport", "Reason", "failure", "common_status", "LEFT_ALONE", "FAILURE"]

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


def _implementation():
    """``platform.python_implementation()``, read from :mod:`sys` alone."""
    name = getattr(getattr(sys, "implementation", None), "name", None)  # 3.3+
    if name is None:  # 2.7
        name = "pypy" if "__pypy__" in sys.builtin_module_names else "cpython"
    return {"cpython": "CPython", "pypy": "PyPy"}.get(name, name)


def common_status(package, version, cve, patched, report, variable, exposed):
    """The keys every ``status()`` has, in the same shape in every package.

    Why here, and read from :mod:`sys` and :mod:`os` alone (``platform``'s
    answers): a ``status()`` a signal handler calls inside ``patch()`` must
    start no import (issue 53), and this module is loaded with the engine."""
    return {
        "package": package,
        "version": version,
        "cve": cve,
        "interpreter": {
            "implementation": _implementation(),
            "version": sys.version.split()[0],
            "executable": sys.executable,
        },
        "patched": patched,
        "report": report.as_dict() if report is not None else None,
        "activation": {"variable": variable, "value": os.environ.get(variable)},
        "exposed": exposed,
    }
