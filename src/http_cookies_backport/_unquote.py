"""The fix: cookie-value unquoting in linear time (CVE-2024-7592, gh-123067).

An unfixed stdlib's ``_unquote`` searches for the next octal escape and the
next backslash escape from every escape onwards, so a value of *n*
backslashes costs O(n**2). gh-123067 (3.12.6, 3.11.10, 3.10.15, 3.9.20,
3.8.20, and 3.13.0) replaced that loop with one pass of
``\\\\(?:([0-3][0-7][0-7])|(.))``: the octal alternative first, so where
both escapes start at one backslash the octal one wins, as in the unfixed
loop. This module makes the same single pass with ``finditer`` and joins the
pieces with ``''.join`` as the unfixed loop does, so on 2.7 the result is the
same bytes (``\\377`` -> ``'\\xff'``) and a unicode value fails, or not,
exactly as the stock function does. ``.`` does not match a newline, in the
fix as in the unfixed patterns: a backslash before a newline stays.
"""

import re
import sys
import types

__all__ = ["unquote", "ESCAPE", "needs_fix", "replacements"]

# 2.7's ``_unquote`` starts with ``len(str) < 2``: ``None`` raises TypeError there,
# where 3.x's ``str is None or ...`` returns it.
NONE_PASSES = sys.version_info[0] >= 3

#: gh-123067's pattern: an octal escape (``\\000``-``\\377``) or a backslash and any character.
ESCAPE = re.compile(r"\\(?:([0-3][0-7][0-7])|(.))")

_nulljoin = "".join


def unquote(str):  # the stdlib's parameter name: a caller may pass it by keyword
    """The value of a cookie value *str*, as fixed CPython's ``http.cookies._unquote``.

    Unquoted when it starts and ends with ``"``; ``\\ooo`` (octal, up to
    ``\\377``) becomes that character and ``\\c`` becomes ``c``. Anything
    else is returned as given. One pass over the value (gh-123067).
    """
    if (NONE_PASSES and str is None) or len(str) < 2:
        return str
    if str[0] != '"' or str[-1] != '"':
        return str
    str = str[1:-1]
    pieces = []
    start = 0
    for match in ESCAPE.finditer(str):
        pieces.append(str[start:match.start()])
        octal = match.group(1)
        pieces.append(chr(int(octal, 8)) if octal else match.group(2))
        start = match.end()
    if start < len(str):  # as the unfixed loop: no empty tail (on 2.7, u'""' gives '')
        pieces.append(str[start:])
    return _nulljoin(pieces)


def needs_fix(module):
    """Whether the cookie *module*'s ``_unquote`` is not gh-123067's single pass.

    The fix calls ``_unquote_sub`` (one ``re.sub`` over the value); the
    quadratic loop searches ``_OctalPatt`` again from every escape. Only the
    fix's shape counts as fixed: any other shape is patched, which changes no
    output (the replacement's is the fix's)."""
    names = module.__dict__["_unquote"].__code__.co_names
    return "_unquote_sub" not in names or "_OctalPatt" in names


def replacements(module):
    """``_unquote``: a function of its own with :func:`unquote`'s code, named as the
    stdlib's. Its own: ``unpatch()`` finds the aliases made while patched by
    identity, and must not touch an application's own binding of :func:`unquote`."""
    copy = types.FunctionType(unquote.__code__, unquote.__globals__, "_unquote")
    copy.__doc__ = unquote.__doc__
    if hasattr(copy, "__qualname__"):
        copy.__qualname__ = "_unquote"
    return {"_unquote": copy}
