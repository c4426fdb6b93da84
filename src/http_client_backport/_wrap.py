"""What every header guard of the package shares: the stdlib module's names and its
stock methods.

Why: a replacement keeps the original's ``__name__``, ``__doc__`` (and
``__qualname__`` on 3.x: ``_engine.named_as``), so tracebacks, ``help()`` and
``inspect`` read as before; each fix module reads the original from the class's own
``__dict__`` when ``replacements()`` is called and calls it for every input
its guard lets through, so honest input gives what the stock method gives.
"""

import sys

__all__ = ["PY2", "TEXT", "original", "connection"]

#: Python 2's ``httplib`` formats and sends ``str`` or ``unicode``; 3.x ``str``.
PY2 = sys.version_info[0] == 2
TEXT = (str, type(u"")) if PY2 else (str,)


def original(module, attribute):
    """The stock ``HTTPConnection.<attribute>`` of *module*, from the class's own dict."""
    return module.HTTPConnection.__dict__[attribute]


def connection(module, host="example.com"):
    """A throw-away ``HTTPConnection`` of *module*: no socket is opened until a send."""
    return module.HTTPConnection(host)
