"""Format the repr of a ctypes parameter exactly as fixed CPython's ``PyCArg_repr`` does.

Why: CPython 3.6.13+/3.10 (bpo-42938, GH-24239) replaced ``sprintf`` into a
256-byte buffer with ``PyUnicode_FromFormat``; this module reproduces that
output in pure Python, so nothing here can overflow.
"""

import ctypes

from . import _layout

_built = []  # [the repr function], built once by formatter(); the first one built wins


def _c_pointer(text):
    """Apply ``PyUnicode_FromFormat``'s rule for ``%p``: make sure the text starts with 0x."""
    if text[1:2] == "X":
        return "0x" + text[2:]
    if text[1:2] != "x":
        return "0x" + text
    return text


def _learn_pointer_style(stock):
    """Learn the platform's ``%p`` from the stock repr *stock* of two constant void pointers.

    Why: ``%p`` is implementation-defined (glibc prints NULL as ``(nil)``). A
    ``'P'`` repr is at most ~40 bytes on every version, so it is safe to call.
    """
    raw = type(ctypes.c_void_p).__dict__["from_param"]  # the metaclass method, never patched

    def inner(address):
        text = stock(raw(ctypes.c_void_p, address))  # "<cparam 'P' (...)>"
        return _c_pointer(text[len("<cparam 'P' ("):-len(")>")])

    digits = inner(0xAB)[2:]
    return inner(0), digits.endswith("AB"), len(digits) if digits[:1] == "0" else 0


def _templates():
    """``{tag: (union field or kind, text template)}`` for the tags that print a value.

    Every other tag prints an address, ``<cparam 'x' at 0x...>`` or, for a byte
    that is not a literal character, ``<cparam 0x07 at 0x...>``; the repr
    formats those itself rather than look them up in a 256-entry table that
    every patching process would build (docs/performance.rst, "Start-up
    switches")."""
    table = {}
    for letters, field in (("bB", "b"), ("hH", "h"), ("iI", "i"), ("lL", "l"), ("qQ", "q")):
        for letter in letters:
            table[letter] = (field, "<cparam '%s' (%%d)>" % letter)
    table["d"] = ("d", "<cparam 'd' (%r)>")
    table["f"] = ("f", "<cparam 'f' (%r)>")
    table["c"] = ("char", "<cparam 'c' (%s)>")
    for letter in "zZP":
        table[letter] = ("pointer", "<cparam '%s' (%%s)>" % letter)
    if bytes is not str:  # Python 3: a c_char field reads as bytes
        table = dict((letter.encode("latin-1"), entry) for letter, entry in table.items())
    return table


def _make(layout, style, carg_type, stock):
    """Build the repr function: one frame, every name it uses bound here (a closure).

    Why one self-contained frame: it stands in for C code, so it calls no
    other Python function (each would cost a frame near the recursion limit),
    looks up no module global or builtin (those are None late in shutdown),
    and catches nothing (a signal handler's exception, a MemoryError or a
    RecursionError passes through, as from any C function). The character
    test, written out twice, is callproc.c's ``is_literal_char``: printable
    ASCII but backslash and quote.
    """
    null, upper, width = style
    pointer = "0x%0*X" if upper else "0x%0*x"
    entry_for = _templates().get
    from_address = layout.from_address
    type_of, address_of, field_of, code_of, char_of = type, id, getattr, ord, chr

    def __repr__(self):
        if type_of(self) is not carg_type:
            return stock(self)  # the stock wrapper's TypeError, like calling it directly
        fields = from_address(address_of(self))  # tagPyCArgObject, read in place
        tag = fields.tag
        entry = entry_for(tag)
        if entry is None:  # no value printed: the tag, and the object's address
            code = code_of(tag)
            if 0x20 <= code < 0x7F and code != 0x5C and code != 0x27:
                return "<cparam '%s' at %s>" % (char_of(code),
                                                pointer % (width, address_of(self)))
            return "<cparam 0x%02x at %s>" % (code, pointer % (width, address_of(self)))
        field, template = entry
        value = fields.value
        if field == "char":
            code = code_of(value.c)
            if 0x20 <= code < 0x7F and code != 0x5C and code != 0x27:
                return template % ("'%s'" % char_of(code))
            return template % ("'\\x%02x'" % code)
        if field == "pointer":
            address = value.p
            return template % (pointer % (width, address) if address else null)
        return template % field_of(value, field)

    __repr__.__doc__ = "Fixed CPython's repr of a ctypes parameter object (bpo-42938)."
    return __repr__


def formatter():
    """The repr function of ``CArgObject`` (fixed CPython's text), or None for unknown layouts.

    Built on first use: the ``%p`` style is learnt from the stock repr then, so
    slot mode builds it before it replaces that repr. None also where nobody
    holds the stock repr any more (another tool replaced it and dropped it).
    """
    if not _built:
        layout, stock = _layout.layout(), _layout.stock_repr()
        if layout is None or stock is None:
            return None
        style = _learn_pointer_style(stock)
        _built.append(_make(layout, style, _layout.CArgType, stock))
    return _built[0]


def float_repr(tag, value):
    """``<cparam 'd' (%R)>`` of the double (or float32 widened to double) ``value``."""
    return "<cparam '%s' (%r)>" % (tag, float(value))


def carg_repr(carg):
    """Return fixed CPython's repr of the ``CArgObject`` ``carg``, reading its fields directly."""
    function = formatter()
    if function is None:  # not CPython, or an unknown layout: still safe, but generic
        return "<cparam at 0x%x>" % id(carg)
    return function(carg)
