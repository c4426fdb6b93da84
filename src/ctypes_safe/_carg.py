"""The safe parameter objects: what ``from_param`` returns instead of a bare ``CArgObject``.

Why: ``CArgObject`` is an immutable C type whose repr overflows on unpatched
CPython (bpo-42938); these objects pass the same value to foreign functions
and print the fixed repr in pure Python.
"""

from . import _repr
from ._layout import CArgType


class SafeCArg(object):
    """A ctypes parameter whose ``repr`` is fixed CPython's and never runs the C repr.

    Why: ``repr`` of the real ``CArgObject`` overflows a stack buffer on unpatched
    CPython (bpo-42938); this object holds it as ``_as_parameter_``, which is
    what ctypes passes in foreign calls.
    """

    __slots__ = ("_as_parameter_",)

    def __init__(self, carg):
        if type(carg) is not CArgType:
            raise TypeError("SafeCArg() needs a CArgObject, not %s" % type(carg).__name__)
        self._as_parameter_ = carg

    @property
    def _obj(self):
        """The object the parameter keeps alive, as ``CArgObject._obj``."""
        return self._as_parameter_._obj

    def __repr__(self):
        return _repr.carg_repr(self._as_parameter_)


_new = object.__new__
_set_carg = SafeCArg._as_parameter_.__set__


def wrap(carg):
    """Return a SafeCArg for ``carg`` without the type check (hot path of converter mode)."""
    safe = _new(SafeCArg)
    _set_carg(safe, carg)
    return safe


def from_param(ctype, value):
    """Return ``ctype.from_param(value)``, with a ``CArgObject`` result made a SafeCArg.

    Why: the result's repr is then fixed CPython's on every interpreter
    (CVE-2021-3177, bpo-42938); everything else, errors included, is unchanged.
    """
    result = ctype.from_param(value)
    if type(result) is CArgType:
        return wrap(result)
    return result
