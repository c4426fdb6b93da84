"""Shared data for the http_cookies_backport tests: the stdlib module, scan work, the reference.

*Scan work* stands for the time a function spends in regular expressions,
without measuring time: a copy of the function runs with each compiled
pattern of its globals (and each bound method of one, such as the fix's
``_unquote_sub``) wrapped so that every call adds the characters it must
examine: from ``pos`` to the end of the match, or to the end of the string
when there is none. The stock loop before gh-123067 searches from every
escape to the end of the value: quadratic work; the fix's single pass: linear.

*The reference* is Debian 12's ``python3.11`` (3.11.2 with Debian's backport
of gh-123067, CVE-2024-7592), run as a child that unquotes JSON lines.
"""

import json
import os
import re
import subprocess
import sys
import types

from reference import REFERENCE  # Debian 12's python3.11: what it carries is probed

PY2 = sys.version_info[0] == 2
STDLIB_MODULE = "Cookie" if PY2 else "http.cookies"
HERE = os.path.dirname(os.path.abspath(__file__))
_PATTERN = type(re.compile(""))


def stdlib():
    """The stdlib cookie module (``http.cookies``; 2.7: ``Cookie``)."""
    __import__(STDLIB_MODULE)
    return sys.modules[STDLIB_MODULE]


class _Counted(object):
    def __init__(self, pattern, tally):
        self._pattern, self._tally = pattern, tally

    def __getattr__(self, name):  # what unquoting does not use: not counted
        return getattr(self._pattern, name)

    def search(self, string, pos=0, *rest):
        match = self._pattern.search(string, pos, *rest)
        self._tally[0] += (match.end() if match else len(string)) - pos
        return match

    def finditer(self, string, pos=0, *rest):
        self._tally[0] += len(string) - pos
        return self._pattern.finditer(string, pos, *rest)

    def sub(self, repl, string, count=0):
        self._tally[0] += len(string)
        return self._pattern.sub(repl, string, count)


def scan_work(function, value):
    """The characters *function*'s patterns examine while it unquotes *value*."""
    tally = [0]
    names = dict(function.__globals__)
    for key, found in list(names.items()):
        if isinstance(found, _PATTERN):
            names[key] = _Counted(found, tally)
        elif isinstance(getattr(found, "__self__", None), _PATTERN):
            names[key] = getattr(_Counted(found.__self__, tally), found.__name__)
    copy = types.FunctionType(function.__code__, names, function.__name__,
                              function.__defaults__, function.__closure__)
    copy(value)
    return tally[0]


def growth(function, make, small=500, factor=8):
    """How many times more scan work *function* does for ``make(factor * small)``
    than for ``make(small)``."""
    return float(scan_work(function, make(small * factor))) / scan_work(function, make(small))


class Reference(object):
    """A ``python3.11`` child unquoting values: :meth:`unquote` ``[text] -> [text]``."""

    def __init__(self):
        self.process = subprocess.Popen(
            [REFERENCE, "-I", os.path.join(HERE, "cookie_reference_child.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def unquote(self, values):
        self.process.stdin.write(json.dumps(values).encode("ascii") + b"\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline().decode("ascii"))

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def native(text):
    """*text* as the stdlib cookie module takes it: 2.7's ``str`` is bytes (latin-1 here)."""
    return text.encode("latin-1") if PY2 else text


def as_text(value):
    return value.decode("latin-1") if PY2 and isinstance(value, bytes) else value
