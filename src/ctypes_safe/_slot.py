"""Slot mode: ``repr()`` of every ctypes parameter object runs fixed CPython's formatting.

Why: every parameter object (each simple type's ``from_param`` result, user
``_SimpleCData`` subclasses, ``byref()``) is a ``CArgObject``, and the C
function in that type's ``tp_repr`` slot is what overflows on unpatched
CPython (bpo-42938). Slot mode makes the type behave as a class with a
Python ``__repr__``: ``tp_repr`` gets CPython's own dispatcher
(``slot_tp_repr``, what every such class has there) and the type's dict gets
:func:`cparam_repr`. Nothing on the call path changes. Every address and
value is verified before anything is written; ``unpatch()`` writes the saved
ones back.

Why not a ctypes callback in ``tp_repr``: when the call into the callback
fails before its first line runs (``repr()`` at the recursion limit), ctypes
hands C an uninitialised pointer (SIGSEGV on 3.11-3.13, garbage on 2.7.18);
through ``slot_tp_repr`` that is an ordinary ``RecursionError``.
"""

import ctypes
import sys

from . import _layout, _repr
from ._compat import is_cpython

__all__ = ["SlotCheckFailed", "Slots", "NAMES", "locate", "install", "restore",
           "is_installed", "cparam_repr"]

#: What slot mode changes, as reports name them.
NAMES = ("_ctypes.CArgObject.tp_repr", "_ctypes.CArgObject.__repr__")

_WORD = ctypes.sizeof(ctypes.c_void_p)

# PyTypeObject fields, in words after the PyObject header (Include/object.h):
# ob_size, tp_name, tp_basicsize, tp_itemsize, tp_dealloc, tp_print (2.7) or
# tp_vectorcall_offset (3.8+), tp_getattr, tp_setattr, tp_compare (2.7) or
# tp_as_async (3.5+), tp_repr.
_TP_NAME, _TP_BASICSIZE, _TP_ITEMSIZE, _TP_REPR = 1, 2, 3, 9

#: ``tp_name`` of CArgObject: a static type up to 3.11, the heap type
#: ``_ctypes.CArgObject`` from 3.12 (FACTS E.1).
_TYPE_NAMES = (b"CArgObject", b"_ctypes.CArgObject")

# PyWrapperDescrObject (Include/descrobject.h), in words after the header:
# d_type, d_name, d_qualname (added by PEP 3155 in 3.3), d_base (the slotdefs
# entry), d_wrapped (the C function the type was created with).
_D_TYPE, _D_NAME = 0, 1
_D_BASE = 3 if sys.version_info >= (3, 3) else 2
_D_WRAPPED = _D_BASE + 1

_CARG_TYPE = _layout.CArgType
_STOCK_DESCRIPTOR = _CARG_TYPE.__dict__.get("__repr__")  # read at import, before any patch
_carg_repr = _repr.carg_repr


class SlotCheckFailed(Exception):
    """A check before (or right after) writing the slot failed: converter mode is used instead."""


def cparam_repr(self):
    """``CArgObject.__repr__`` in slot mode: fixed CPython's text (bpo-42938), never an error.

    Why: it stands in for C code that never raised, so a failure of the
    pure-Python formatting prints a fallback built without the C repr. Called
    with anything but a ``CArgObject`` it raises the stock ``TypeError``.
    """
    try:
        if type(self) is _CARG_TYPE:
            return _carg_repr(self)
    except Exception:
        pass
    else:  # not a CArgObject: the stock wrapper checks the type first and raises
        return _STOCK_DESCRIPTOR(self)
    try:
        return "<cparam '?' at 0x%x>" % id(self)
    except Exception:
        return "<cparam>"


class Slots(object):
    """The verified places slot mode writes, with the values they held before."""

    def __init__(self, type_dict, tp_repr, stock, dispatcher, modified):
        self.type_dict = type_dict  # CArgObject's real dict (behind the mappingproxy)
        self.tp_repr = tp_repr  # address of the tp_repr slot
        self.stock = stock  # the stock repr function's address, as the type was created
        self.dispatcher = dispatcher  # address of CPython's slot_tp_repr
        self.modified = modified  # PyType_Modified: drops the type's cached lookups


def _words(address, count):
    return [value or 0 for value in (ctypes.c_void_p * count).from_address(address)]


def _write(address, value):
    ctypes.c_void_p.from_address(address).value = value


def _check(condition, reason, *args):
    if not condition:
        raise SlotCheckFailed(reason % args)


def locate():
    """Verify every place and value slot mode writes; return the Slots or raise SlotCheckFailed.

    Why each check: a wrong header size (``Py_TRACE_REFS`` builds add
    ``_ob_next``/``_ob_prev``) fails on plain integers before any pointer is
    followed; the offset of ``tp_repr`` comes from CPython's own slot table
    and must match the documented one; the slot must still hold the function
    the type was created with; the value written is the one CPython itself
    puts in the slot of a class with a Python ``__repr__``.
    """
    import gc

    _check(is_cpython(), "not CPython: id() is not an address")
    head, rest = divmod(object.__basicsize__, _WORD)
    _check(not rest and head >= (4 if hasattr(sys, "getobjects") else 2),
           "unexpected object header of %d bytes", object.__basicsize__)
    carg_type = _CARG_TYPE
    slot = head + _TP_REPR
    words = _words(id(carg_type), slot + 1)
    _check(words[head + _TP_BASICSIZE] == carg_type.__basicsize__
           and words[head + _TP_ITEMSIZE] == carg_type.__itemsize__,
           "tp_basicsize/tp_itemsize are not at words %d/%d", head + 2, head + 3)
    name = ctypes.string_at(words[head + _TP_NAME]) if words[head + _TP_NAME] else b""
    _check(name in _TYPE_NAMES and name.endswith(carg_type.__name__.encode("ascii")),
           "tp_name is %r, not CArgObject's", name)

    descriptor = carg_type.__dict__.get("__repr__")
    _check(descriptor is _STOCK_DESCRIPTOR
           and type(descriptor) is type(object.__dict__["__repr__"])
           and descriptor.__objclass__ is carg_type,
           "CArgObject.__repr__ is not its stock slot wrapper")
    fields = _words(id(descriptor), head + _D_WRAPPED + 1)
    _check(fields[head + _D_TYPE] == id(carg_type) and fields[head + _D_NAME] ==
           id(descriptor.__name__) and fields[head + _D_BASE],
           "unexpected layout of the __repr__ slot wrapper")
    entry = _slotdef(fields[head + _D_BASE])
    _check(entry.name == b"__repr__" and entry.offset == slot * _WORD,
           "slot table entry %r has offset %d, expected tp_repr at %d",
           entry.name, entry.offset, slot * _WORD)
    stock = fields[head + _D_WRAPPED]
    _check(stock and words[slot] == stock,
           "tp_repr does not hold the repr the type was created with")
    dispatcher = entry.function or 0
    probe = type("Probe", (object,), {"__repr__": cparam_repr})
    _check(dispatcher and _words(id(probe), slot + 1)[slot] == dispatcher,
           "slot_tp_repr is not what a class with a Python __repr__ has in tp_repr")

    referents = gc.get_referents(carg_type.__dict__)
    _check(len(referents) == 1 and type(referents[0]) is dict
           and referents[0].get("__repr__") is descriptor, "CArgObject's dict not found")
    modified = getattr(ctypes, "pythonapi", None)
    _check(modified is not None, "ctypes.pythonapi is missing")
    modified = modified["PyType_Modified"]  # a new function object: nobody else's argtypes
    modified.argtypes = [ctypes.py_object]
    modified.restype = None

    for sample in (ctypes.c_int.from_param(7), ctypes.c_void_p.from_param(0x12)):
        text = repr(sample)  # the stock repr: these cannot overflow
        _check(_carg_repr(sample) == text,
               "the pure-Python repr gives %r where the stock one gives %r",
               _carg_repr(sample), text)
    _repr.pointer_text(0)  # learnt from the stock repr now: after install() it is ours
    return Slots(referents[0], id(carg_type) + slot * _WORD, stock, dispatcher, modified)


def _slotdef(address):
    """The head of ``struct wrapperbase`` at *address*: a ``slotdefs`` entry (typeobject.c)."""

    class WrapperBase(ctypes.Structure):
        _fields_ = [("name", ctypes.c_char_p), ("offset", ctypes.c_int),
                    ("function", ctypes.c_void_p)]

    return WrapperBase.from_address(address)


def install(slots):
    """Write slot mode into the verified *slots*; check ``repr()`` then, or restore and raise.

    The caller holds the patch lock. Between the two writes another thread
    sees either the stock repr or the safe one, never anything else.
    """
    slots.type_dict["__repr__"] = cparam_repr
    slots.modified(_CARG_TYPE)
    _write(slots.tp_repr, slots.dispatcher)
    sample = ctypes.c_double.from_param(1.5)  # stock on 2.7: "(1.500000)", cannot overflow
    expected = "<cparam 'd' (1.5)>"
    if not repr(sample) == str(sample) == sample.__repr__() == expected:
        restore(slots)
        raise SlotCheckFailed("after writing, repr() does not run the safe repr")


def restore(slots):
    """Write back what *slots* held before; return ``(changed, skipped)`` as report entries.

    A place that someone else has rewritten since is left as it is.
    """
    changed, skipped = [], []
    if _words(slots.tp_repr, 1)[0] == slots.dispatcher:
        _write(slots.tp_repr, slots.stock)
        changed.append(NAMES[0])
    else:
        skipped.append((NAMES[0], "rebound by someone else since patch(): left in place"))
    if slots.type_dict.get("__repr__") is cparam_repr:
        slots.type_dict["__repr__"] = _STOCK_DESCRIPTOR
        changed.append(NAMES[1])
    else:
        skipped.append((NAMES[1], "rebound by someone else since patch(): left in place"))
    slots.modified(_CARG_TYPE)
    return changed, skipped


def is_installed(slots):
    """True while both places still hold what ``install()`` wrote."""
    return (_words(slots.tp_repr, 1)[0] == slots.dispatcher
            and slots.type_dict.get("__repr__") is cparam_repr)
