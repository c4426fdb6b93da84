"""Slot mode: ``repr()`` of every ctypes parameter object runs fixed CPython's formatting.

Why: every parameter object (each simple type's ``from_param`` result, user
``_SimpleCData`` subclasses, ``byref()``) is a ``CArgObject``, and the C
function in that type's ``tp_repr`` slot is what overflows on unpatched
CPython (bpo-42938). Slot mode makes the type behave as a class with a
Python ``__repr__``: ``tp_repr`` gets CPython's own dispatcher
(``slot_tp_repr``, what every such class has there) and the type's dict gets
the function ``_repr.formatter()`` builds. Nothing on the call path changes.
Every address and value is verified before anything is written; the two
places are written, checked and restored as one unit.

Why not a ctypes callback in ``tp_repr``: a Python exception in a callback is
not a clean error return, and when the call into the callback fails before its
first line runs (``repr()`` at the recursion limit), ctypes hands C an
uninitialised pointer (SIGSEGV on 3.11-3.13, garbage on 2.7.18); through
``slot_tp_repr`` that is an ordinary ``RecursionError``.
"""

import ctypes
import sys

from . import _interpreter, _layout, _repr
from ._compat import ascii_bytes, is_cpython

__all__ = ["SlotCheckFailed", "Slots", "NAMES", "locate", "install", "restore",
           "is_installed"]

#: What slot mode changes, as reports name them.
NAMES = ("_ctypes.CArgObject.tp_repr", "_ctypes.CArgObject.__repr__")

_WORD = ctypes.sizeof(ctypes.c_void_p)

# PyTypeObject fields, in words after the PyObject header (Include/object.h):
# ob_size, tp_name, tp_basicsize, tp_itemsize, tp_dealloc, tp_print (2.7) or
# tp_vectorcall_offset (3.8+), tp_getattr, tp_setattr, tp_compare (2.7) or
# tp_as_async (3.5+), tp_repr. On a release build the header is two words, so
# tp_name is word 3 and tp_repr word 11 of the type object.
_TP_NAME, _TP_BASICSIZE, _TP_ITEMSIZE, _TP_REPR = 1, 2, 3, 9

#: ``tp_name`` of CArgObject: the static type ``CArgObject`` up to 3.11, the
#: heap type ``_ctypes.CArgObject`` from 3.12, where _ctypes' types became heap types.
_TYPE_NAMES = (b"CArgObject", b"_ctypes.CArgObject")

# PyWrapperDescrObject (Include/descrobject.h), in words after the header:
# d_type, d_name, d_qualname (added by PEP 3155 in 3.3), d_base (the slotdefs
# entry), d_wrapped (the C function the type was created with).
_D_TYPE, _D_NAME = 0, 1
_D_BASE = 3 if sys.version_info >= (3, 3) else 2
_D_WRAPPED = _D_BASE + 1

_CARG_TYPE = _layout.CArgType
_STOCK_DESCRIPTOR = _layout.STOCK_REPR
_NOT_OURS = "rebound by someone else since patch(): both left in place"


class SlotCheckFailed(Exception):
    """A check before (or right after) writing the slot failed: converter mode is used instead."""


class Slots(object):
    """The verified places slot mode writes, with the values they held before."""

    def __init__(self, type_dict, tp_repr, stock, dispatcher, modified, function):
        self.type_dict = type_dict  # CArgObject's real dict (behind the mappingproxy)
        self.tp_repr = tp_repr  # address of the tp_repr slot
        self.stock = stock  # the stock repr function's address, as the type was created
        self.dispatcher = dispatcher  # address of CPython's slot_tp_repr
        self.modified = modified  # PyType_Modified: drops the type's cached lookups
        self.function = function  # the __repr__ installed in the dict


def _words(address, count):
    return [value or 0 for value in (ctypes.c_void_p * count).from_address(address)]


def _write(address, value):
    ctypes.c_void_p.from_address(address).value = value


def _check(condition, reason, *args):
    if not condition:
        raise SlotCheckFailed(reason % args)


def _check_interpreter():
    """Refuse builds and interpreters where a correct write cannot be proven safe."""
    _check(is_cpython(), "not CPython: id() is not an address")
    _check(not _interpreter.is_free_threaded(),
           "free-threaded build (Py_GIL_DISABLED, PEP 703): no GIL orders the write of "
           "tp_repr against other threads' reads")
    _check(_interpreter.is_main_interpreter(),
           "not the main interpreter: CArgObject is shared by every interpreter of the "
           "process (up to 3.12), and a __repr__ installed from this one would outlive it")
    head, rest = divmod(object.__basicsize__, _WORD)
    _check(not rest and head == (4 if hasattr(sys, "getobjects") else 2),
           "unexpected object header of %d bytes", object.__basicsize__)
    return head


def locate():
    """Verify every place and value slot mode writes; return the Slots or raise SlotCheckFailed.

    Why each check: a wrong header size (``Py_TRACE_REFS`` builds add
    ``_ob_next``/``_ob_prev``, free-threaded ones four more fields) fails on
    plain integers before any pointer is followed; the offset of ``tp_repr``
    comes from CPython's own slot table and must match the documented one;
    the slot must still hold the function the type was created with; the
    value written is the one CPython itself puts in the slot of a class with
    a Python ``__repr__``.
    """
    import gc

    head = _check_interpreter()
    carg_type = _CARG_TYPE
    slot = head + _TP_REPR
    words = _words(id(carg_type), slot + 1)
    _check(words[head + _TP_BASICSIZE] == carg_type.__basicsize__
           and words[head + _TP_ITEMSIZE] == carg_type.__itemsize__,
           "tp_basicsize/tp_itemsize are not at words %d/%d", head + 2, head + 3)
    name = ctypes.string_at(words[head + _TP_NAME]) if words[head + _TP_NAME] else b""
    _check(name in _TYPE_NAMES and name.endswith(ascii_bytes(carg_type.__name__)),
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
    function = _repr.formatter()  # learns %p from the stock repr: before anything is written
    _check(function is not None, "the layout of CArgObject's fields is not the expected one")
    dispatcher = entry.function or 0
    probe = type("Probe", (object,), {"__repr__": function})
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
        _check(function(sample) == text,
               "the pure-Python repr gives %r where the stock one gives %r",
               function(sample), text)
    return Slots(referents[0], id(carg_type) + slot * _WORD, stock, dispatcher, modified,
                 function)


def _slotdef(address):
    """The head of ``struct wrapperbase`` at *address*: a ``slotdefs`` entry (typeobject.c)."""

    class WrapperBase(ctypes.Structure):
        _fields_ = [("name", ctypes.c_char_p), ("offset", ctypes.c_int),
                    ("function", ctypes.c_void_p)]

    return WrapperBase.from_address(address)


def install(slots):
    """Write slot mode into the verified *slots* and check ``repr()``; all or nothing.

    The caller holds the patch lock. Between the two writes another thread
    sees either the stock repr or the safe one, never anything else. Whatever
    stops this half-way (a failed check, a MemoryError, a signal handler's
    exception) finds both places written back before it propagates.
    """
    raw = type(ctypes.c_double).__dict__["from_param"]  # the metaclass method, never patched
    try:
        slots.type_dict["__repr__"] = slots.function
        slots.modified(_CARG_TYPE)
        _write(slots.tp_repr, slots.dispatcher)
        sample = raw(ctypes.c_double, 1.5)  # stock on 2.7: "(1.500000)", cannot overflow
        if not repr(sample) == str(sample) == sample.__repr__() == "<cparam 'd' (1.5)>":
            raise SlotCheckFailed("after writing, repr() does not run the safe repr")
    except BaseException:
        _write_back(slots)
        raise


def _write_back(slots):
    """Put the stock slot and dict entry back, each only where it still holds what we wrote."""
    if _words(slots.tp_repr, 1)[0] == slots.dispatcher:
        _write(slots.tp_repr, slots.stock)
    if slots.type_dict.get("__repr__") is slots.function:
        slots.type_dict["__repr__"] = _STOCK_DESCRIPTOR
    slots.modified(_CARG_TYPE)


def restore(slots):
    """Write back what *slots* held before; return ``(changed, skipped)`` as report entries.

    Both places or neither: if someone has rewritten either since (another
    tool's ``__repr__`` also puts ``slot_tp_repr`` in ``tp_repr``), both are
    left as they are, since the stock C repr under another ``__repr__`` would
    bring back the overflow.
    """
    if not is_installed(slots):
        return [], [(name, _NOT_OURS) for name in NAMES]
    _write_back(slots)
    return list(NAMES), []


def is_installed(slots):
    """True while both places still hold what ``install()`` wrote."""
    return (_words(slots.tp_repr, 1)[0] == slots.dispatcher
            and slots.type_dict.get("__repr__") is slots.function)
