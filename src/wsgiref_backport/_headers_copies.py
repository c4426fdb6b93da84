"""gh-143916's ``Headers`` methods at the stock cost: the stock body behind the check.

A replacement that checks, then calls the original, costs one more Python
call than the stock method: as much as the method's own work for a
``h[name] = value`` or a ``name in h``. So where the class's method is the
stock 3.x body (CPython 3.6-3.13 and PyPy3 ship one text; its code is that
of the stock body's twin here: same bytecode, names and constants), the replacement is
that body preceded by ``_headers``' wrapper's check, written out in the same
function: the same checks in the same order with the same side effects, then
what the stock method does, without the second call. 2.7's bodies (all but
``add_header``) are in ``_headers_copies27``, the same way. Anything else (a
body edited by a distributor, one already replaced) keeps the wrapper.

A copy runs in the stock module's namespace, as the stock body does (its
names, ``_formatparam``, read at each call), with ``_headers``' helpers
loaded as constants (``_cpython_security._copies``): ``_PLAIN`` (a plain
``str``: one C call), ``_CHECKED`` (upstream's
``_convert_string_type(v, name=...)``), ``_ODD`` (what ``_PLAIN`` raises on a
non-string) and ``_CHECKED_PAIRS`` (upstream's ``__init__`` loop). A copy has
no closure and no defaults of its own: either would miss CPython's fast call
path before 3.11.
"""

from _cpython_security._copies import checked_copy

from . import _headers_copies27

__all__ = ["copy_of"]

# The stock 3.x bodies (3.6-3.13), written out as twins: never called, compiled
# with this module (patching compiles nothing), compared with the class's own code
# (``_cpython_security._copies``); docstrings as its DOC (the original's are not
# compared). flake8: the stock module's names (F821).


class _Stock3(object):
    def __init__(self, headers=None):
        headers = headers if headers is not None else []
        if type(headers) is not list:
            raise TypeError("Headers must be a list of name/value tuples")
        self._headers = headers
        if __debug__:
            for k, v in headers:
                self._convert_string_type(k)
                self._convert_string_type(v)

    def __setitem__(self, name, val):
        """stock docstring"""
        del self[name]
        self._headers.append(
            (self._convert_string_type(name), self._convert_string_type(val)))

    def __delitem__(self, name):
        """stock docstring"""
        name = self._convert_string_type(name.lower())
        self._headers[:] = [kv for kv in self._headers if kv[0].lower() != name]

    def get_all(self, name):
        """stock docstring"""
        name = self._convert_string_type(name.lower())
        return [kv[1] for kv in self._headers if kv[0].lower() == name]

    def get(self, name, default=None):
        """stock docstring"""
        name = self._convert_string_type(name.lower())
        for k, v in self._headers:
            if k.lower() == name:
                return v
        return default

    def setdefault(self, name, value):
        """stock docstring"""
        result = self.get(name)
        if result is None:
            self._headers.append((self._convert_string_type(name),
                                  self._convert_string_type(value)))
            return value
        else:
            return result

    def add_header(self, _name, _value, **_params):
        """stock docstring"""
        parts = []
        if _value is not None:
            _value = self._convert_string_type(_value)
            parts.append(_value)
        for k, v in _params.items():
            k = self._convert_string_type(k)
            if v is None:
                parts.append(k.replace('_', '-'))
            else:
                v = self._convert_string_type(v)
                parts.append(_formatparam(k.replace('_', '-'), v))  # noqa: F821
        self._headers.append((self._convert_string_type(_name), "; ".join(parts)))


class _Copies(object):
    """The copies (a class body, not a function: a nested function's code misses the fast
    call path too). flake8: the helpers are the copy's constants (F821), by design."""

    def __init__(self, headers=None):
        headers = headers if headers is not None else []
        if type(headers) is not list:
            raise TypeError("Headers must be a list of name/value tuples")
        self._headers = headers
        if __debug__:  # upstream checks the pairs under __debug__ only
            try:
                for k, v in headers:
                    if not (_PLAIN(k) and _PLAIN(v)):  # noqa: F821
                        break
                    self._convert_string_type(k)
                    self._convert_string_type(v)
                else:
                    return
            except _ODD:  # noqa: F821 - a non-string: the exact checks say what
                pass
            _CHECKED_PAIRS(self, headers)  # noqa: F821

    def __setitem__(self, name, val):
        try:
            plain = _PLAIN(name) and _PLAIN(val)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain:  # upstream: the name's lines deleted, then the checks
            del self[name]
            _CHECKED(self, name, True)  # noqa: F821
            _CHECKED(self, val, False)  # noqa: F821
        del self[name]
        self._headers.append(
            (self._convert_string_type(name), self._convert_string_type(val)))

    def __delitem__(self, name):
        try:
            plain = _PLAIN(name)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain:
            _CHECKED(self, name.lower(), True)  # noqa: F821
        name = self._convert_string_type(name.lower())
        self._headers[:] = [kv for kv in self._headers if kv[0].lower() != name]

    def get_all(self, name):
        try:
            plain = _PLAIN(name)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain:
            _CHECKED(self, name.lower(), True)  # noqa: F821
        name = self._convert_string_type(name.lower())
        return [kv[1] for kv in self._headers if kv[0].lower() == name]

    def get(self, name, default=None):
        try:
            plain = _PLAIN(name)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain:
            _CHECKED(self, name.lower(), True)  # noqa: F821
        name = self._convert_string_type(name.lower())
        for k, v in self._headers:
            if k.lower() == name:
                return v
        return default

    def setdefault(self, name, value):
        try:
            plain = _PLAIN(name) and _PLAIN(value)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain and self.get(name) is None:
            _CHECKED(self, name, True)  # noqa: F821
            _CHECKED(self, value, False)  # noqa: F821
        result = self.get(name)
        if result is None:
            self._headers.append((self._convert_string_type(name),
                                  self._convert_string_type(value)))
            return value
        else:
            return result

    def add_header(self, _name, _value, **_params):
        try:
            plain = _PLAIN(_name) and (_value is None or _PLAIN(_value))  # noqa: F821
            if plain:
                for k, v in _params.items():
                    if not _PLAIN(k) or (v is not None and not _PLAIN(v)):  # noqa: F821
                        plain = False
                        break
        except _ODD:  # noqa: F821
            plain = False
        if not plain:  # upstream's order: the value, each parameter, the name
            if _value is not None:
                _CHECKED(self, _value, False)  # noqa: F821
            for k, v in _params.items():
                _CHECKED(self, k, True)  # noqa: F821
                if v is not None:
                    _CHECKED(self, v, False)  # noqa: F821
            _CHECKED(self, _name, True)  # noqa: F821
        parts = []
        if _value is not None:
            _value = self._convert_string_type(_value)
            parts.append(_value)
        for k, v in _params.items():
            k = self._convert_string_type(k)
            if v is None:
                parts.append(k.replace('_', '-'))
            else:
                v = self._convert_string_type(v)
                parts.append(_formatparam(k.replace('_', '-'), v))  # noqa: F821
        self._headers.append((self._convert_string_type(_name), "; ".join(parts)))


#: Each stock body's twin and its checked copy: 3.x's, then 2.7's.
_FAMILIES = ((_Stock3, _Copies), (_headers_copies27.Stock, _headers_copies27.Copies))


def copy_of(original, name, helpers):
    """The checked copy of the stock *original* (``Headers.name``), or None where it is
    none of the stock bodies (3.x's here, 2.7's in ``_headers_copies27``). *helpers*:
    the copy's ``_PLAIN``, ``_CHECKED``, ... by name."""
    return checked_copy(original, name, _FAMILIES, helpers)
