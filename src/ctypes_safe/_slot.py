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
from ._report import failure
from ._state import at_once

__all__ = ["SlotCheckFailed", "Slots", "NAMES", "STOCK", "OURS", "SOMEONE_ELSE", "places",
           "locate", "install", "restore", "is_installed", "holder"]

#: What slot mode changes, as reports name them.
NAMES = ("_ctypes.CArgObject.tp_repr", "_ctypes.CArgObject.__repr__")

#: Who provides ``repr()`` of parameter objects (:func:`holder`): the C function the type
#: was created with, this copy of the package, or anyone else (another copy, another tool).
STOCK, OURS, SOMEONE_ELSE = "stock", "this package", "someone else"

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
_NOT_OURS = failure("rebound by someone else since patch(): both left in place")
_found = []  # [the Slots], filled once by places(); the first one verified wins


class SlotCheckFailed(Exception):
    """A check before (or right after) writing the slot failed: converter mode is used instead."""


class Slots(object):
    """The verified places slot mode writes, and the values it writes there; never changed."""

    def __init__(self, type_dict, tp_repr, descriptor, stock, dispatcher, modified, function):
        self.type_dict = type_dict  # CArgObject's real dict (behind the mappingproxy)
        self.tp_repr = tp_repr  # address of the tp_repr slot
        self.descriptor = descriptor  # the stock __repr__ slot wrapper, the dict's own entry
        self.stock = stock  # the stock repr function's address, as the type was created
        self.dispatcher = dispatcher  # address of CPython's slot_tp_repr
        self.modified = modified  # PyType_Modified: drops the type's cached lookups
        self.function = function  # the __repr__ installed in the dict, or None


def _words(address, count):
    return [value or 0 for value in (ctypes.c_void_p * count).from_address(address)]


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


def places():
    """The verified Slots of this process (found once, no lock), or raise SlotCheckFailed."""
    if not _found:
        _found.append(_verify())
    return _found[0]


def locate():
    """The Slots, once the type is proven to hold the stock repr; else raise SlotCheckFailed."""
    slots = places()
    _check_stock(slots)
    return slots


def _verify():
    """Verify every place slot mode reads and writes; return the Slots or raise SlotCheckFailed.

    Why each check: a wrong header size (``Py_TRACE_REFS`` builds add
    ``_ob_next``/``_ob_prev``, free-threaded ones four more fields) fails on
    plain integers before any pointer is followed; the offset of ``tp_repr``
    comes from CPython's own slot table and must match the documented one;
    the value written is the one CPython itself puts in the slot of a class
    with a Python ``__repr__``. None of it depends on who patched the type
    (the stock slot wrapper is found where another copy keeps it), so the
    answer holds for the whole process and :func:`holder` can use it.
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

    descriptor = _layout.stock_repr()
    _check(descriptor is not None, "CArgObject's stock __repr__ slot wrapper is gone")
    fields = _words(id(descriptor), head + _D_WRAPPED + 1)
    _check(fields[head + _D_TYPE] == id(carg_type) and fields[head + _D_NAME] ==
           id(descriptor.__name__) and fields[head + _D_BASE],
           "unexpected layout of the __repr__ slot wrapper")
    entry = _slotdef(fields[head + _D_BASE])
    _check(entry.name == b"__repr__" and entry.offset == slot * _WORD,
           "slot table entry %r has offset %d, expected tp_repr at %d",
           entry.name, entry.offset, slot * _WORD)
    dispatcher = entry.function or 0
    probe = type("Probe", (object,), {"__repr__": lambda self: ""})
    _check(dispatcher and _words(id(probe), slot + 1)[slot] == dispatcher,
           "slot_tp_repr is not what a class with a Python __repr__ has in tp_repr")

    referents = gc.get_referents(carg_type.__dict__)
    _check(len(referents) == 1 and type(referents[0]) is dict
           and referents[0].get("__repr__") is carg_type.__dict__.get("__repr__"),
           "CArgObject's dict not found")
    modified = getattr(ctypes, "pythonapi", None)
    _check(modified is not None, "ctypes.pythonapi is missing")
    modified = modified["PyType_Modified"]  # a new function object: nobody else's argtypes
    modified.argtypes = [ctypes.py_object]
    modified.restype = None
    return Slots(referents[0], id(carg_type) + slot * _WORD, descriptor,
                 fields[head + _D_WRAPPED], dispatcher, modified, _repr.formatter())


def _check_stock(slots):
    """Raise SlotCheckFailed unless the type holds the stock repr and ours is proven to match it.

    Why: ``unpatch()`` writes back what the type was created with; a repr
    someone else put there must never be taken for that.
    """
    _check(slots.stock and _words(slots.tp_repr, 1)[0] == slots.stock,
           "tp_repr does not hold the repr the type was created with")
    _check(slots.type_dict.get("__repr__") is slots.descriptor,
           "CArgObject.__repr__ is not its stock slot wrapper")
    function = slots.function
    _check(function is not None, "the layout of CArgObject's fields is not the expected one")
    for sample in (ctypes.c_int.from_param(7), ctypes.c_void_p.from_param(0x12)):
        text = repr(sample)  # the stock repr: these cannot overflow
        _check(function(sample) == text,
               "the pure-Python repr gives %r where the stock one gives %r",
               function(sample), text)


def _slotdef(address):
    """The head of ``struct wrapperbase`` at *address*: a ``slotdefs`` entry (typeobject.c)."""

    class WrapperBase(ctypes.Structure):
        _fields_ = [("name", ctypes.c_char_p), ("offset", ctypes.c_int),
                    ("function", ctypes.c_void_p)]

    return WrapperBase.from_address(address)


def _write_steps(slots, tp_repr, entry):
    """The steps that put *entry* in the dict and *tp_repr* in the slot (None: left alone)."""
    steps = []
    if entry is not None:
        steps.append((slots.type_dict.__setitem__, "__repr__", entry))
    steps.append((slots.modified, _CARG_TYPE))
    if tp_repr is not None:
        steps.append((setattr, ctypes.c_void_p.from_address(slots.tp_repr), "value", tp_repr))
    return steps


def install(slots):
    """Write slot mode into the verified *slots* and check ``repr()``; all or nothing.

    The caller holds the patch lock and has :func:`locate`'d *slots*. Both
    places are written in one step (:func:`~ctypes_safe._state.at_once`), so every thread and
    every signal handler sees either the stock repr or the safe one. Whatever
    stops the check after it (a failed check, a MemoryError, a signal
    handler's exception) finds both places written back before it
    propagates; one stopping that leaves the type wholly patched, which is
    what :func:`is_installed` then says.
    """
    raw = type(ctypes.c_double).__dict__["from_param"]  # the metaclass method, never patched
    steps = _write_steps(slots, slots.dispatcher, slots.function)
    try:
        at_once(*steps)
        sample = raw(ctypes.c_double, 1.5)  # stock on 2.7: "(1.500000)", cannot overflow
        if not repr(sample) == str(sample) == sample.__repr__() == "<cparam 'd' (1.5)>":
            raise SlotCheckFailed("after writing, repr() does not run the safe repr")
    except BaseException:
        _write_back(slots)
        raise


def _write_back(slots):
    """Put the stock slot and dict entry back, each only where it still holds what we wrote.

    Returns the names written back. Both in one step (:func:`~ctypes_safe._state.at_once`).
    """
    slot = _words(slots.tp_repr, 1)[0] == slots.dispatcher
    entry = slots.type_dict.get("__repr__") is slots.function is not None
    at_once(*_write_steps(slots, slots.stock if slot else None,
                          slots.descriptor if entry else None))
    return [name for name, written in zip(NAMES, (slot, entry)) if written]


def restore(slots):
    """Write back what *slots* held before; return ``(changed, skipped)`` as report entries.

    Both places or neither: if someone has rewritten either since (another
    tool's ``__repr__`` also puts ``slot_tp_repr`` in ``tp_repr``), both are
    left as they are, since the stock C repr under another ``__repr__`` would
    bring back the overflow. Where the stock repr already runs (an
    interrupted ``unpatch()`` got that far), what is left of ours goes.
    """
    if is_installed(slots) or holder(slots) == STOCK:
        return _write_back(slots), []
    return [], [(name, _NOT_OURS) for name in NAMES]


def is_installed(slots):
    """True while both places hold what ``install()`` wrote: this package's repr runs."""
    return (_words(slots.tp_repr, 1)[0] == slots.dispatcher
            and slots.type_dict.get("__repr__") is slots.function is not None)


def holder(slots):
    """Who provides ``repr()`` of parameter objects now: STOCK, OURS or SOMEONE_ELSE.

    Read from the slot and the dict, never by calling what is installed:
    ``repr()`` runs the stock C function when the slot holds it, or when the
    slot holds ``slot_tp_repr`` and the dict the stock wrapper.
    """
    tp_repr, entry = _words(slots.tp_repr, 1)[0], slots.type_dict.get("__repr__")
    if tp_repr == slots.stock or (tp_repr == slots.dispatcher and entry is slots.descriptor):
        return STOCK
    if tp_repr == slots.dispatcher and entry is slots.function is not None:
        return OURS
    return SOMEONE_ELSE
