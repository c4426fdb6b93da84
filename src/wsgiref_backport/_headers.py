"""The fix: ``wsgiref.headers.Headers`` refuses control characters (CVE-2026-0865, gh-143916).

An unfixed ``Headers`` writes names, values and ``add_header`` parameters to
the response as given, so a value carrying CR/LF (a reflected file name, a
redirect target) adds header lines of the attacker's choosing, or ends the
headers early (response splitting). gh-143916 (GH-143917, with GH-144118's
correction that a value may hold HTAB) makes ``_convert_string_type`` refuse,
with ``ValueError("Control characters not allowed in headers")``:

- in a name (``_name``, a parameter's key, a name looked up or deleted):
  C0 (``\\x00``-``\\x1f``) and DEL;
- in a value (``_value``, a parameter's value): the same but HTAB (RFC 9110 5.5).

Upstream checks wherever ``_convert_string_type`` is called: ``__setitem__``,
``__delitem__``, ``get`` (so ``__getitem__`` and ``in`` too), ``get_all``,
``setdefault``, ``add_header``, and ``__init__``'s pairs only under
``if __debug__:`` (not under ``-O``: gh-150726 asks for that, unmerged).

Each replacement first asks whether every string argument is plain (a
linear test with no pattern on 3.x: ``str.isprintable`` is False for every C0
character and DEL). Then upstream's fixed method does what the stock one does,
so the original is called. Otherwise the replacement makes upstream's checks,
in upstream's order and after upstream's side effects (``__setitem__`` deletes
the name's lines before it looks at the value; ``__init__`` has stored the
list), and raises where upstream raises; input that passes them (an honest
tab in a value, a non-ASCII character) then goes to the original.
"""

import re
import sys

from _cpython_security._engine import named_as
from _cpython_security._plain import is_plain as _plain

from ._headers_copies import copy_of

__all__ = ["needs_fix", "replacements", "MESSAGE", "METHODS"]

#: Upstream's message, for every refusal of a name, value or parameter.
MESSAGE = "Control characters not allowed in headers"

#: The ``Headers`` methods upstream's fix checks in (``__getitem__`` and
#: ``__contains__`` call ``get``).
METHODS = ("__init__", "__setitem__", "__delitem__", "get_all", "get", "setdefault",
           "add_header")

# gh-144118: HTAB (\x09) is allowed in values, not in names (RFC 9110 5.5).
_name_search = re.compile(r"[\x00-\x1F\x7F]").search
_value_search = re.compile(r"[\x00-\x08\x0A-\x1F\x7F]").search

#: What the tests of plainness may raise on an odd argument: then the exact checks run.
_ODD = (TypeError, ValueError)

_MISSING = object()

# Python 2/3 differences, in one place.
# 3.x: upstream's pattern runs after the stock ``_convert_string_type`` has let a
# ``str`` through (anything else: AssertionError), so only a ``str`` is searched.
# 2.7: ``Headers`` checks no types (str and unicode alike) and has no
# ``_convert_string_type``. ``_plain(value)`` is the header guards' shared
# ``is_plain``: true only if *value* is a string without a C0 character or DEL;
# on false, or on a non-string (it raises), the exact checks run.
# ``_SAME_KWARGS``: whether ``**params`` passed on keeps its order (3.6+: PEP 468).
# A 2.7 dict built again from another may iterate in another order (colliding
# keys), so there ``add_header`` runs its own body, the stock one, on the
# parameters as the caller's call made them, rather than calling the original.
if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    _STRINGS = (str, unicode)  # noqa: F821 - Python 2 only
    _SAME_KWARGS = False

    def _converted(headers, value):
        return value
else:
    _STRINGS = (str,)
    _SAME_KWARGS = True

    def _converted(headers, value):
        return headers._convert_string_type(value)


def _plain_pairs(pairs):
    """Whether every name and value of *pairs* is plain."""
    for k, v in pairs:
        if not (_plain(k) and _plain(v)):
            return False
    return True


def _checked(headers, value, name):
    """*value* as upstream's ``_convert_string_type(value, name=name)`` returns it."""
    value = _converted(headers, value)
    if isinstance(value, _STRINGS) and (_name_search if name else _value_search)(value):
        raise ValueError(MESSAGE)
    return value


def _checked_pairs(headers, pairs):
    """Upstream's ``__init__`` loop (under ``__debug__``): each name, then its value."""
    for k, v in pairs:
        _checked(headers, k, True)
        _checked(headers, v, False)


def _plain_params(params):
    """Whether every key and value of *params* is plain (a None value: nothing to test)."""
    for k, v in params.items():
        if not _plain(k) or (v is not None and not _plain(v)):
            return False
    return True


def _add_header_body(module, headers, name, value, params):
    """2.7's stock ``Headers.add_header`` body, on *params* as given (see ``_SAME_KWARGS``)."""
    parts = []
    if value is not None:
        parts.append(value)
    for k, v in params.items():
        if v is None:
            parts.append(k.replace("_", "-"))
        else:
            parts.append(module._formatparam(k.replace("_", "-"), v))
    headers._headers.append((name, "; ".join(parts)))


def needs_fix(module):
    """Whether the module's ``Headers`` takes a CR/LF in a value or an ``add_header``
    parameter (tried on a throw-away instance); False where it has no ``Headers``."""
    headers_class = getattr(module, "Headers", None)
    if headers_class is None:
        return False
    for attempt in (lambda h: h.__setitem__("X", "a\r\nb"),
                    lambda h: h.add_header("X", "v", p="a\r\nb")):
        try:
            attempt(headers_class([]))
        except ValueError:
            continue
        return True
    return False


def replacements(module):
    """``{"Headers.method": replacement}`` for each of :data:`METHODS`, around the
    methods the module's ``Headers`` holds now."""
    own = module.Headers.__dict__
    init, setitem, delitem, get_all, get, setdefault, add_header = [own[m] for m in METHODS]

    def __init__(self, headers=_MISSING):
        if headers is _MISSING:  # the original's default (3.x) or its TypeError (2.7)
            return init(self)
        if __debug__ and type(headers) is list:  # upstream checks the pairs under __debug__
            try:
                if _plain_pairs(headers):
                    return init(self, headers)
            except _ODD:
                pass
            self._headers = headers
            _checked_pairs(self, headers)
        return init(self, headers)

    def __setitem__(self, name, val):
        try:
            plain = _plain(name) and _plain(val)
        except _ODD:
            plain = False
        if not plain:
            del self[name]
            _checked(self, name, True)
            _checked(self, val, False)
        return setitem(self, name, val)

    def __delitem__(self, name):
        try:
            plain = _plain(name)
        except _ODD:
            plain = False
        if not plain:
            _checked(self, name.lower(), True)
        return delitem(self, name)

    def get_all_(self, name):
        try:
            plain = _plain(name)
        except _ODD:
            plain = False
        if not plain:
            _checked(self, name.lower(), True)
        return get_all(self, name)

    def get_(self, name, default=None):
        try:
            plain = _plain(name)
        except _ODD:
            plain = False
        if not plain:
            _checked(self, name.lower(), True)
        return get(self, name, default)

    def setdefault_(self, name, value):
        try:
            plain = _plain(name) and _plain(value)
        except _ODD:
            plain = False
        if not plain and self.get(name) is None:
            _checked(self, name, True)
            _checked(self, value, False)
        return setdefault(self, name, value)

    def add_header_(self, _name, _value, **_params):
        try:
            plain = (_plain(_name) and (_value is None or _plain(_value))
                     and (not _params or _plain_params(_params)))
        except _ODD:
            plain = False
        if not plain:
            if _value is not None:
                _checked(self, _value, False)
            for k, v in _params.items():
                _checked(self, k, True)
                if v is not None:
                    _checked(self, v, False)
            _checked(self, _name, True)
        if not _SAME_KWARGS:
            return _add_header_body(module, self, _name, _value, _params)
        return add_header(self, _name, _value, **_params)

    news = (__init__, __setitem__, __delitem__, get_all_, get_, setdefault_, add_header_)
    helpers = {"_PLAIN": _plain, "_CHECKED": _checked, "_ODD": _ODD,
               "_CHECKED_PAIRS": _checked_pairs}
    # The stock 3.x body with this check inlined where the method is one (_headers_copies).
    return dict(("Headers." + name, named_as(copy_of(own[name], name, helpers) or new, own[name]))
                for name, new in zip(METHODS, news))
