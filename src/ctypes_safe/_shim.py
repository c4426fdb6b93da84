"""Patch state: which simple types get a safe ``from_param``, the saved originals, detection.

Why: code that reprs ``c_double.from_param(x)`` (logging, debuggers) crashes an
unpatched interpreter (CVE-2021-3177, bpo-42938); the shim makes those types
return safe objects, explicitly and reversibly.
"""

import collections
import ctypes
import threading

from . import _carg, _layout

_lock = threading.RLock()
_ABSENT = object()  # marks "from_param was inherited from the metaclass"
_saved = {}  # type -> original entry of its __dict__ (or _ABSENT); first original wins
_installed = {}  # type -> the classmethod we put in its __dict__
_detected = []  # [bool], the cached vulnerability check


class PatchReport(collections.namedtuple("PatchReport", "active changed vulnerable types")):
    """What ``patch()``/``unpatch()`` did.

    ``active``: the shim is installed after the call; ``changed``: this call
    installed or removed it; ``vulnerable``: the interpreter has the unfixed
    repr (bpo-42938); ``types``: names of the types whose ``from_param`` is replaced.
    """

    __slots__ = ()


# The tags each patched type's from_param can produce, i.e. which SafeCArg it accepts back.
_ACCEPTED_TAGS = {"d": "d", "f": "f", "c": "c", "P": "PzZ"}


def is_vulnerable():
    """True if ctypes' parameter repr is the unfixed ``sprintf("%f")`` one (bpo-42938).

    Why: the fixed repr prints ``(1.5)`` for 1.5 and the vulnerable one
    ``(1.500000)``; 1.5 cannot overflow, so asking is safe in-process.
    """
    if not _detected:
        raw = type(ctypes.c_double).__dict__["from_param"]  # the metaclass method, never patched
        _detected.append("1.500000" in repr(raw(ctypes.c_double, 1.5)))
    return _detected[0]


def targets():
    """Return ``[(type, tag)]``: the types whose stock repr can differ from fixed CPython's.

    Why: only 'd' overflows, but 'd'/'f' print ``%f`` and 'c' prints the raw
    byte on unpatched CPython, and a NULL 'P' prints ``((nil))``; every other
    tag already prints what fixed CPython prints (bpo-42938).
    """
    found = []
    for base in (ctypes.c_double, ctypes.c_float, ctypes.c_char, ctypes.c_void_p):
        tag = base._type_
        # The byte-swapped twin (c_double.__ctype_be__ on little-endian) returns
        # the same native 'd' parameter from from_param.
        for cls in (base, getattr(base, "__ctype_be__", None), getattr(base, "__ctype_le__", None)):
            if cls is not None and all(cls is not seen for seen, _ in found):
                found.append((cls, tag))
    return found


def _unbound(cls, entry):
    """Return a callable ``f(cls, value)`` running the original ``from_param`` ``entry``."""
    if entry is _ABSENT:
        return type(cls).__dict__["from_param"]  # PyCSimpleType_from_param
    if isinstance(entry, classmethod):
        return entry.__func__
    if type(entry).__name__ == "classmethod_descriptor":
        return entry  # c_void_p's own C classmethod, callable as entry(cls, value)

    def call(owner, value):
        return entry.__get__(None, owner)(value)

    return call


def _make_from_param(target, tag, original, stock):
    """Build the replacement ``from_param`` of ``target`` (policy: docs/ctypes_safe.rst).

    ``stock``: ``original`` is ctypes' own, so the value fast path may bypass it.
    """
    CArg = _layout.CArgType
    SafeCArg = _carg.SafeCArg
    wrap = _carg.wrap
    tag_of = _layout.tag_of
    accepted = _ACCEPTED_TAGS[tag]

    def unwrap(value):
        """Accept a SafeCArg of a matching tag; hand any other back to the stock check."""
        found = tag_of(value._as_parameter_)
        if found is not None and found in accepted:
            return value, True
        return value._as_parameter_, False

    ints = tuple({int, type(2 ** 64)})  # int and, on Python 2, long

    if tag in "df":
        exact_float = float
        fast = _carg.value_type(tag)
        fast_target = target if stock else None  # never bypass someone else's from_param

        def from_param(cls, value):
            if cls is fast_target:
                kind = type(value)
                if kind is exact_float:
                    return fast(value)  # a real c_double/c_float: built in C, accepted everywhere
                if kind in ints:
                    try:
                        return fast(value)  # same setfunc as from_param; no side effects
                    except Exception:
                        pass  # let the stock from_param raise its own error
            if type(value) is SafeCArg:
                value, ok = unwrap(value)
                if ok:
                    return value
            result = original(cls, value)
            if type(result) is CArg:
                return wrap(result)
            return result

    elif tag == "c":

        def from_param(cls, value):
            if type(value) is SafeCArg:
                value, ok = unwrap(value)
                if ok:
                    return value
            result = original(cls, value)
            if type(result) is CArg:
                return wrap(result)
            return result

    else:  # 'P': only a NULL pointer prints differently ('((nil))' vs '(0x(nil))' on glibc)
        is_null = _layout.is_null_pointer

        def from_param(cls, value):
            if type(value) in ints:
                result = original(cls, value)
                if value or type(result) is not CArg:
                    return result
                return wrap(result)
            if type(value) is SafeCArg:
                value, ok = unwrap(value)
                if ok:
                    return value
            result = original(cls, value)
            if type(result) is CArg and is_null(result):
                return wrap(result)
            return result

    from_param.__doc__ = (
        "%s.from_param with a repr-safe result (ctypes_safe, CVE-2021-3177, bpo-42938)."
        % target.__name__)
    return classmethod(from_param)


def _report(changed):
    return PatchReport(
        active=bool(_installed),
        changed=changed,
        vulnerable=is_vulnerable(),
        types=tuple(cls.__name__ for cls, _ in targets() if cls in _installed),
    )


def patch(force=False):
    """Make the simple types' ``from_param`` return repr-safe objects; return a PatchReport.

    Why: existing code (logging ``c_double.from_param(x)``, argtypes converters)
    is then protected from CVE-2021-3177 (bpo-42938). Does nothing on a fixed
    interpreter unless ``force`` is true; idempotent and thread-safe.
    """
    with _lock:
        if _installed or not (force or is_vulnerable()):
            return _report(changed=False)
        for cls, tag in targets():
            entry = cls.__dict__.get("from_param", _ABSENT)
            _saved.setdefault(cls, entry)
            original = _saved[cls]
            stock = original is _ABSENT or type(original).__name__ == "classmethod_descriptor"
            replacement = _make_from_param(cls, tag, _unbound(cls, original), stock)
            cls.from_param = replacement
            _installed[cls] = replacement
        return _report(changed=True)


def unpatch():
    """Restore the original ``from_param`` of every type ``patch()`` replaced; return a PatchReport.

    Why: the shim must be reversible (bpo-42938 backport). A replacement that
    someone else has overwritten since is left alone.
    """
    with _lock:
        if not _installed:
            return _report(changed=False)
        for cls in list(_installed):
            if cls.__dict__.get("from_param") is _installed.pop(cls):
                original = _saved.pop(cls)
                if original is _ABSENT:
                    del cls.from_param
                else:
                    cls.from_param = original
            else:
                _saved.pop(cls)
        return _report(changed=True)


def is_patched():
    """True if every replacement ``patch()`` installed is still in place."""
    with _lock:
        return bool(_installed) and all(
            cls.__dict__.get("from_param") is replacement
            for cls, replacement in _installed.items())
