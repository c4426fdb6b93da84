"""Read the tag and value of a ctypes ``CArgObject`` from its memory, without its repr.

Why: the C ``repr`` is what overflows on unpatched CPython (bpo-42938) and the
fields are not exposed to Python; a ctypes mirror of ``struct tagPyCArgObject``
(the same in CPython 2.7 and 3.6-3.13) reads them instead.
"""

import ctypes

from ._compat import is_cpython

# The concrete type of what the simple types' from_param returns.
CArgType = type(ctypes.c_int.from_param(0))

#: Why there is nothing to fix here, or None on CPython: where ``from_param``
#: returns an instance of the ctypes type itself (PyPy, whose ctypes is
#: written in Python), its repr is that type's Python one (``c_int(0)``);
#: there is no ``CArgObject`` and no C ``PyCArg_repr`` (bpo-42938) to overflow.
NOT_APPLICABLE = (
    "this implementation's from_param returns a %s instance, whose repr is written in "
    "Python: there is no C PyCArg_repr (bpo-42938 concerns CPython's)" % (CArgType.__name__,)
    if issubclass(CArgType, ctypes._SimpleCData) else None)

_WRAPPER = type(object.__dict__["__repr__"])  # the type of a C slot's wrapper descriptor
_cache = []  # [layout class or None], filled once by layout(); the first one built wins
_stock = []  # [the stock __repr__ slot wrapper or None], filled once by stock_repr()


def is_stock_repr(entry):
    """True if *entry* is ``CArgObject``'s own ``__repr__`` slot wrapper.

    Why it can be trusted: CPython makes that wrapper when it creates the
    type, from the C function the type was created with, and calling it calls
    that function directly, whatever ``tp_repr`` holds now; Python code cannot
    make another one.
    """
    return (type(entry) is _WRAPPER and entry.__objclass__ is CArgType
            and entry.__name__ == "__repr__")


def stock_repr():
    """``CArgObject``'s stock ``__repr__`` slot wrapper (it calls the C repr), or None if gone.

    It is the type's dict entry until someone replaces that. A patch that can
    be undone keeps the wrapper it replaced (this package's and any copy of
    it do), and the wrapper refers to the type: it is then found among the
    type's referrers. Found once, without a lock, before this package writes.
    """
    if not _stock:
        if NOT_APPLICABLE is not None:
            _stock.append(None)
            return None
        entry = CArgType.__dict__.get("__repr__")
        if not is_stock_repr(entry):
            import gc
            found = [item for item in gc.get_referrers(CArgType) if is_stock_repr(item)]
            entry = found[0] if found else None
        _stock.append(entry)
    return _stock[0]


def _build():
    """Return the mirror Structure of ``tagPyCArgObject``, or None if it does not fit."""
    if not is_cpython():
        return None  # id() is an address only in CPython

    class Value(ctypes.Union):
        # Modules/_ctypes/ctypes.h: the union every tag stores its value in.
        _fields_ = [
            ("c", ctypes.c_char),
            ("b", ctypes.c_byte),
            ("h", ctypes.c_short),
            ("i", ctypes.c_int),
            ("l", ctypes.c_long),
            ("q", ctypes.c_longlong),
            ("D", ctypes.c_longdouble),
            ("d", ctypes.c_double),
            ("f", ctypes.c_float),
            ("p", ctypes.c_void_p),
        ]

    head = object.__basicsize__ // ctypes.sizeof(ctypes.c_void_p)

    class CArgLayout(ctypes.Structure):
        _fields_ = [
            ("ob_head", ctypes.c_void_p * head),  # PyObject_HEAD, whatever the build
            ("pffi_type", ctypes.c_void_p),
            ("tag", ctypes.c_char),
            ("value", Value),
            ("obj", ctypes.c_void_p),
            ("size", ctypes.c_ssize_t),
        ]

    if ctypes.sizeof(CArgLayout) != CArgType.__basicsize__:
        return None
    # Self-check on known parameters before trusting the mirror.
    probes = [
        (ctypes.c_int.from_param(0x1234567), b"i", "i", 0x1234567),
        (ctypes.c_double.__class__.__dict__["from_param"](ctypes.c_double, -1.5), b"d", "d", -1.5),
        (ctypes.c_ubyte.from_param(200), b"B", "b", -56),
    ]
    for carg, tag, field, expected in probes:
        if type(carg) is not CArgType:
            return None
        view = CArgLayout.from_address(id(carg))
        if view.tag != tag or getattr(view.value, field) != expected:
            return None
    return CArgLayout


def layout():
    """The mirror Structure of ``tagPyCArgObject``, or None where it does not fit (built once).

    No lock: two threads may both build it, and both then use the first one
    kept, so a forked child can never inherit a lock held here.
    """
    if not _cache:
        _cache.append(_build())
    return _cache[0]


def view(carg):
    """Return a read-only-by-convention view of ``carg``'s fields, or None if unsupported.

    The caller must keep ``carg`` alive while it uses the view.
    """
    mirror = layout()
    if mirror is None or type(carg) is not CArgType:
        return None
    return mirror.from_address(id(carg))


def tag_of(carg):
    """Return the one-character tag of ``carg`` as text, or None if it cannot be read."""
    fields = view(carg)
    if fields is None:
        return None
    return chr(ord(fields.tag))


def is_null_pointer(carg):
    """True if ``carg`` is a 'P' parameter holding NULL (or its fields cannot be read)."""
    fields = view(carg)
    if fields is None:
        return True
    return fields.tag == b"P" and not fields.value.p
