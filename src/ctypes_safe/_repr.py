"""Format the repr of a ctypes parameter exactly as fixed CPython's ``PyCArg_repr`` does.

Why: CPython 3.6.13+/3.10 (bpo-42938, GH-24239) replaced ``sprintf`` into a
256-byte buffer with ``PyUnicode_FromFormat``; this module reproduces that
output in pure Python, so nothing here can overflow.
"""

import ctypes

from . import _layout
from ._compat import allocate_lock

_lock = allocate_lock()
_pointer_style = []  # [(null text, upper-case?, width)], learned once


def is_literal_char(code):
    """Mirror ``is_literal_char`` of callproc.c: printable ASCII except backslash and quote."""
    return 0x20 <= code < 0x7F and code not in (0x5C, 0x27)


def _c_pointer(text):
    """Apply ``PyUnicode_FromFormat``'s rule for ``%p``: make sure the text starts with 0x."""
    if text[1:2] == "X":
        return "0x" + text[2:]
    if text[1:2] != "x":
        return "0x" + text
    return text


def _learn_pointer_style():
    """Learn the platform's ``%p`` from the stock repr of two constant void pointers.

    Why: ``%p`` is implementation-defined (glibc prints NULL as ``(nil)``). A
    ``'P'`` repr is at most ~40 bytes on every version, so it is safe to call.
    """
    raw = type(ctypes.c_void_p).__dict__["from_param"]  # the metaclass method, never patched

    def inner(address):
        text = repr(raw(ctypes.c_void_p, address))  # "<cparam 'P' (...)>"
        return _c_pointer(text[len("<cparam 'P' ("):-len(")>")])

    digits = inner(0xAB)[2:]
    return inner(0), digits.endswith("AB"), len(digits) if digits[:1] == "0" else 0


def pointer_text(address):
    """Format ``address`` (an int, 0/None for NULL) as fixed CPython's ``%p``.

    The first call learns the style from the stock repr, so slot mode makes
    it before it replaces that repr (the replacement would otherwise be asked).
    """
    if not _pointer_style:
        with _lock:
            if not _pointer_style:
                _pointer_style.append(_learn_pointer_style())
    null, upper, width = _pointer_style[0]
    if not address:
        return null
    digits = "%0*X" % (width, address) if upper else "%0*x" % (width, address)
    return "0x" + digits


def float_repr(tag, value):
    """``<cparam 'd' (%R)>`` of the double (or float32 widened to double) ``value``."""
    return "<cparam '%s' (%r)>" % (tag, float(value))


def _char(code):
    if is_literal_char(code):
        return "'%s'" % chr(code)
    return "'\\x%02x'" % code


def carg_repr(carg):
    """Return fixed CPython's repr of the ``CArgObject`` ``carg``, reading its fields directly."""
    fields = _layout.view(carg)
    if fields is None:  # not CPython, or an unknown layout: still safe, but generic
        return "<cparam at %s>" % pointer_text(id(carg))
    tag = ord(fields.tag)
    value = fields.value
    letter = chr(tag)
    if letter in "bB":
        number = value.b
    elif letter in "hH":
        number = value.h
    elif letter in "iI":
        number = value.i
    elif letter in "lL":
        number = value.l
    elif letter in "qQ":
        number = value.q
    elif letter == "d":
        return float_repr(letter, value.d)
    elif letter == "f":
        return float_repr(letter, value.f)
    elif letter == "c":
        return "<cparam 'c' (%s)>" % _char(ord(value.c))
    elif letter in "zZP":
        return "<cparam '%s' (%s)>" % (letter, pointer_text(value.p))
    elif is_literal_char(tag):
        return "<cparam '%s' at %s>" % (letter, pointer_text(id(carg)))
    else:
        return "<cparam 0x%02x at %s>" % (tag, pointer_text(id(carg)))
    return "<cparam '%s' (%d)>" % (letter, number)
