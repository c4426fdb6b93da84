"""The fix: ``email.message._parseparam`` in linear time (gh-136063).

``_parseparam`` splits a ``Content-Type``/``Content-Disposition`` value into
its ``;``-separated parameters for ``get_param``, ``get_params``,
``get_filename``, ``get_boundary``, ``get_content_charset`` and the
(legacy) multipart parser. An unfixed one slices the rest of the value off
after each parameter and, to tell whether a ``;`` is inside quotes, counts the
quotes from the parameter's start to every next ``;``: a value of ``"`` and
*n* semicolons costs O(n**2) (100 KB: seconds of CPU per header read).
gh-136063 (GH-136072; 3.12.13, 3.11.15, 3.10.20) keeps one index into the
value and counts each stretch between two ``;`` once.

:func:`parseparam` is that linear loop, written to give what the stock
function gives for every input: a parameter's text is taken, stripped and
lowered as the stock loop does (``f[:i].strip().lower() + '=' + f[i+1:].strip()``),
only the search for its end is linear.
"""

import sys

__all__ = ["parseparam", "needs_fix", "replacements"]

# Python 2/3 differences, in one place: 3.x's ``_parseparam(s)`` makes the
# value text itself (``';' + str(s)``, it may be a Header); 2.7's callers pass
# ``';' + value`` and it parses that as given. On 2.7 a module holding 3.x's
# (python-future's copy of 3.3's ``email.message``, which reads ``str``) gets
# :func:`parseparam` behind 3.x's step, read from the function's code.
if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    def _text(s):
        return s

    def _source(original):
        return _of_text if "str" in original.__code__.co_names else parseparam
else:
    def _text(s):
        return ";" + str(s)

    def _source(original):
        return parseparam


def parseparam(s):
    """The parameters of *s*, each ``key=value`` (key lowered) or a bare word, stripped.

    A ``;`` inside a quoted string (an odd count of ``"`` not preceded by a
    backslash so far) does not end a parameter. Linear in ``len(s)`` (gh-136063)."""
    s = _text(s)
    plist = []
    start = 0
    while s.startswith(";", start):
        start += 1
        end = s.find(";", start)
        counted = start
        quotes = 0
        while end > 0:  # the stock loop's quote count over s[start:end], one stretch at a time
            quotes += s.count('"', counted, end) - s.count('\\"', counted, end)
            if not quotes % 2:
                break
            counted, end = end, s.find(";", end + 1)
        if end < 0:
            end = len(s)
        f = s[start:end]
        if "=" in f:
            i = f.index("=")
            f = f[:i].strip().lower() + "=" + f[i + 1:].strip()
        plist.append(f.strip())
        start = end
    return plist


def _of_text(s):
    """3.x's ``_parseparam(s)`` on 2.7: the value made text, then :func:`parseparam`."""
    return parseparam(";" + str(s))


def needs_fix(module):
    """Whether ``module._parseparam`` counts quotes from a parameter's start again at
    every ``;``: it is given a value of ``a="`` and 10 semicolons whose ``count`` calls
    are recorded; the stock loop counts about 10 times the value's length, the fixed
    one about twice. A function that never calls ``count`` cannot be read: patched."""
    function = module.__dict__.get("_parseparam")
    if function is None:
        return False
    spans = []
    value = _Recorder('a="' + ";" * 10)
    _Recorder.spans = spans
    try:
        function(";" + value if sys.version_info[0] == 2 else value)
    finally:
        _Recorder.spans = None
    counted = sum(max(0, end - begin) for begin, end in spans)
    return not spans or counted > 4 * (len(value) + 1)


class _Recorder(str):
    """A value that records the ``(start, end)`` of each ``count`` the parser makes,
    and stays one through ``str()``, ``';' + value`` and slicing."""

    spans = None

    def __str__(self):
        return self

    def __radd__(self, other):
        return _Recorder(str.__add__(other, self))

    def __getitem__(self, key):
        return _Recorder(str.__getitem__(self, key))

    def __getslice__(self, i, j):  # 2.7 slices through here
        return _Recorder(str.__getslice__(self, i, j))

    def count(self, sub, *bounds):
        if _Recorder.spans is not None:
            start, end, _ = slice(*(tuple(bounds) + (None, None))[:2]).indices(len(self))
            _Recorder.spans.append((start, end))
        return str.count(self, sub, *bounds)


def replacements(module):
    """``_parseparam``: a function of its own with :func:`parseparam`'s code, named as
    the stdlib's (its own: ``unpatch()`` finds aliases made while patched by identity)."""
    original = module.__dict__["_parseparam"]
    source = _source(original)
    copy = type(source)(source.__code__, source.__globals__, "_parseparam")
    copy.__doc__ = original.__doc__
    if hasattr(copy, "__qualname__"):
        copy.__qualname__ = original.__qualname__
    return {"_parseparam": copy}
