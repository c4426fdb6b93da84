"""2.7's ``Headers`` bodies for ``_headers_copies``: the stock text, and the copy behind
``_headers``' check (the same check as 3.x's copies, in front of 2.7's body).

2.7 got no upstream fix: its ``Headers`` checks no types and has no
``_convert_string_type``; ``_CHECKED`` there is the pattern alone (a
non-string passes, as the stock stores it). ``add_header`` is not here: 2.7's
wrapper already runs the stock body itself (``_headers._add_header_body``).
"""

__all__ = ["Stock", "Copies"]


# The stock 2.7.18 bodies, written out as twins (see ``_headers_copies._Stock3``).
class Stock:
    def __init__(self, headers):
        if type(headers) is not ListType:  # noqa: F821
            raise TypeError("Headers must be a list of name/value tuples")
        self._headers = headers

    def __setitem__(self, name, val):
        """stock docstring"""
        del self[name]
        self._headers.append((name, val))

    def __delitem__(self, name):
        """stock docstring"""
        name = name.lower()
        self._headers[:] = [kv for kv in self._headers if kv[0].lower() != name]

    def get_all(self, name):
        """stock docstring"""
        name = name.lower()
        return [kv[1] for kv in self._headers if kv[0].lower() == name]

    def get(self, name, default=None):
        """stock docstring"""
        name = name.lower()
        for k, v in self._headers:
            if k.lower() == name:
                return v
        return default

    def setdefault(self, name, value):
        """stock docstring"""
        result = self.get(name)
        if result is None:
            self._headers.append((name, value))
            return value
        else:
            return result


class Copies:
    """The copies (a class body: see ``_headers_copies._Copies``). flake8: the helpers
    (the copy's constants) and ``ListType`` (the stock module's) are undefined here
    (F821), by design."""

    def __init__(self, headers):
        if type(headers) is not ListType:  # noqa: F821
            raise TypeError("Headers must be a list of name/value tuples")
        self._headers = headers
        if __debug__:  # as the 3.x copy (and wrapper): the pairs under __debug__
            try:
                for k, v in headers:
                    if not (_PLAIN(k) and _PLAIN(v)):  # noqa: F821
                        break
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
        if not plain:
            del self[name]
            _CHECKED(self, name, True)  # noqa: F821
            _CHECKED(self, val, False)  # noqa: F821
        del self[name]
        self._headers.append((name, val))

    def __delitem__(self, name):
        try:
            plain = _PLAIN(name)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain:
            _CHECKED(self, name.lower(), True)  # noqa: F821
        name = name.lower()
        self._headers[:] = [kv for kv in self._headers if kv[0].lower() != name]

    def get_all(self, name):
        try:
            plain = _PLAIN(name)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain:
            _CHECKED(self, name.lower(), True)  # noqa: F821
        name = name.lower()
        return [kv[1] for kv in self._headers if kv[0].lower() == name]

    def get(self, name, default=None):
        try:
            plain = _PLAIN(name)  # noqa: F821
        except _ODD:  # noqa: F821
            plain = False
        if not plain:
            _CHECKED(self, name.lower(), True)  # noqa: F821
        name = name.lower()
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
            self._headers.append((name, value))
            return value
        else:
            return result
