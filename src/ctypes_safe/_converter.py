"""Converter mode: the simple types' ``from_param`` return repr-safe objects (the fallback mode).

Why: where slot mode cannot verify ``CArgObject``'s type object, replacing
``from_param`` of the types whose stock repr can differ from fixed CPython's
(bpo-42938) still protects what they return, in pure Python attributes that
``unpatch()`` puts back. It costs a Python call per converted argument and
does not reach ``_SimpleCData`` subclasses written by users.
"""

import ctypes

from . import _carg, _layout, _repr
from ._compat import INTEGER_TYPES
from ._report import failure
from ._state import ABSENT, state

__all__ = ["targets", "install", "restore", "value_type"]

_value_types = {}  # tag -> private subclass of the ctype, created on first use
_FLOAT_BASES = {"d": ctypes.c_double, "f": ctypes.c_float}

# The tags each patched type's from_param can produce, i.e. which SafeCArg it accepts back.
_ACCEPTED_TAGS = {"d": "d", "f": "f", "c": "c", "P": "PzZ"}


def targets():
    """Return ``[(name, type, tag)]``: the types whose stock repr can differ from fixed CPython's.

    Why: only 'd' overflows, but 'd'/'f' print ``%f`` and 'c' prints the raw
    byte on unpatched CPython, and a NULL 'P' prints ``((nil))``; every other
    tag already prints what fixed CPython prints (bpo-42938).
    """
    found = []
    for base in (ctypes.c_double, ctypes.c_float, ctypes.c_char, ctypes.c_void_p):
        # The byte-swapped twin (c_double.__ctype_be__ on little-endian) returns
        # the same native 'd' parameter from from_param.
        for suffix in ("", "__ctype_be__", "__ctype_le__"):
            cls = getattr(base, suffix, None) if suffix else base
            if cls is not None and all(cls is not seen for _, seen, _ in found):
                name = "ctypes." + base.__name__ + ("." + suffix if suffix else "")
                found.append((name, cls, base._type_))
    return found


def value_type(tag):
    """Return the private subclass of ``c_double`` ('d') or ``c_float`` ('f') converter mode uses.

    Why: an instance is a real ``c_double`` (every converter accepts it, even one
    installed before the patch) and is built in C, so the common path stays
    cheap; its repr is the one fixed CPython (bpo-42938) gives the
    ``CArgObject`` it stands for. Created on first use: import changes nothing.
    """
    try:
        return _value_types[tag]
    except KeyError:
        pass
    base = _FLOAT_BASES[tag]

    def __repr__(self):
        return _repr.float_repr(tag, self.value)

    namespace = {
        "__repr__": __repr__,
        "__module__": __name__,
        "__doc__": "A %s whose repr is fixed CPython's cparam (bpo-42938)." % base.__name__,
    }
    name = {"d": "SafeDouble", "f": "SafeFloat"}[tag]
    # No lock (a forked child could inherit it held): of two threads racing
    # here, both get the class the first one stored.
    return _value_types.setdefault(tag, type(base)(name, (base,), namespace))


def _unbound(cls, entry):
    """Return a callable ``f(cls, value)`` running the original ``from_param`` ``entry``."""
    if entry is ABSENT:
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

    ints = INTEGER_TYPES
    # 'd'/'f': a float or int given to the type itself is built in C where the
    # original is ctypes' own from_param (someone else's is never bypassed).
    # 'P': only a NULL pointer prints differently ('((nil))' vs '(0x(nil))' on
    # glibc), so only a NULL one is wrapped. 'c': every CArgObject is wrapped.
    fast = value_type(tag) if tag in "df" else None
    fast_target = target if stock and fast is not None else None
    exact_float = float
    null_only = _layout.is_null_pointer if tag == "P" else None

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
        elif null_only is not None and type(value) in ints:
            result = original(cls, value)
            if value or type(result) is not CArg:
                return result
            return wrap(result)
        if type(value) is SafeCArg:
            value, ok = unwrap(value)
            if ok:
                return value
        result = original(cls, value)
        if type(result) is CArg and (null_only is None or null_only(result)):
            return wrap(result)
        return result

    from_param.__doc__ = (
        "%s.from_param with a repr-safe result (ctypes_safe, CVE-2021-3177, bpo-42938)."
        % target.__name__)
    return classmethod(from_param)


def install(report):
    """Replace ``from_param`` of every target, listed in *report*; caller holds ``state.lock``."""
    for name, cls, tag in targets():
        original = cls.__dict__.get("from_param", ABSENT)
        stock = original is ABSENT or type(original).__name__ == "classmethod_descriptor"
        replacement = _make_from_param(cls, tag, _unbound(cls, original), stock)
        state.ledger.bind(cls, "from_param", replacement, name + ".from_param",
                          attribute="class", old=original)
        report.changed.append(name + ".from_param")


def restore(report):
    """Put back every original ``from_param``; list them in *report*. Caller holds ``state.lock``.

    A replacement that someone else has overwritten since is left in place.
    """
    restored, left = state.ledger.unbind()  # newest first: listed in the order patched
    report.changed.extend(reversed(restored))
    report.skipped.extend((label, failure("rebound by someone else since patch(): left in place"))
                          for label in reversed(left))
