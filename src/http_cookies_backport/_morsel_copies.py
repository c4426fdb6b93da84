"""gh-143919's setters at the stock cost: the stock body with upstream's check inlined.

A replacement that checks, then calls the original, costs one more Python
call than the stock setter (about as much as the setter's own work: a
``morsel["path"] = v`` is a few hundred nanoseconds). So where the class's
method is one of the stock bodies below (its code is that of the stock
body's twin here: same bytecode, names and constants, on this interpreter),
the replacement is a copy of that body with upstream's check where upstream's fixed code has it
(after the reserved/illegal-key checks), run in the stock module's namespace
(its names read at each call, as the stock body reads them) with its helpers
loaded as constants (``_cpython_security._copies``): the same errors, in
the same order, and for honest input the same stores.
Anything else (a body edited by a distributor, or already replaced by
someone) gets ``_morsel``'s wrapper around the original.

The honest check is two C-level tests: the value's type is ``str`` and it is
printable (3.x ``str.isprintable``; 2.7: a dict of strings found clean, then a
pattern match); ``set``'s coded value, mostly the value itself (``_quote``
returns a legal value as it is), is tested only where it is another object.
Anything else (a number, a non-ASCII or non-``str`` value) goes to
``_morsel``'s exact test. The key's characters need no test on that path: it
was just found reserved (a setter) or legal (``set``), which no text holding a
control character is (``set`` still asks that it be a ``str``: a subclass's
``str()`` may say otherwise).

What is left on honest input is those tests: two C calls (type, printable)
on the value, where the stock setter makes about three; on CPython before
3.11 a C call from Python code costs 25-45 ns, a fifth of the setter.
"""

from _cpython_security._copies import checked_copy

__all__ = ["copy_of"]

# The stock bodies, as CPython ships them (3.x __setitem__/setdefault: 3.5-3.13; set:
# 3.7-3.13, 3.6 (LegalChars deprecated) and 2.7; 2.7's __setitem__), written out as
# twins: never called, compiled with this module (patching compiles nothing), and
# compared with the class's own code. A default's value is not in a function's code:
# the twins' are None. Python 2/3: both families are here; which one matches is read
# from the code, never from a version. flake8: the stock module's names (F821).


class _Stock3(object):
    def __setitem__(self, K, V):
        K = K.lower()
        if not K in self._reserved:  # noqa: E713 - the stock body's words
            raise CookieError("Invalid attribute %r" % (K,))  # noqa: F821
        dict.__setitem__(self, K, V)

    def setdefault(self, key, val=None):
        key = key.lower()
        if key not in self._reserved:
            raise CookieError("Invalid attribute %r" % (key,))  # noqa: F821
        return dict.setdefault(self, key, val)

    def set(self, key, val, coded_val):
        if key.lower() in self._reserved:
            raise CookieError('Attempt to set a reserved key %r' % (key,))  # noqa: F821
        if not _is_legal_key(key):  # noqa: F821
            raise CookieError('Illegal key %r' % (key,))  # noqa: F821
        self._key = key
        self._value = val
        self._coded_value = coded_val


class _Stock36(object):
    def set(self, key, val, coded_val, LegalChars=None):
        if LegalChars != _LegalChars:  # noqa: F821
            import warnings
            warnings.warn(
                'LegalChars parameter is deprecated, ignored and will '
                'be removed in future versions.', DeprecationWarning,
                stacklevel=2)
        if key.lower() in self._reserved:
            raise CookieError('Attempt to set a reserved key %r' % (key,))  # noqa: F821
        if not _is_legal_key(key):  # noqa: F821
            raise CookieError('Illegal key %r' % (key,))  # noqa: F821
        self._key = key
        self._value = val
        self._coded_value = coded_val


class _Stock2(object):
    def __setitem__(self, K, V):
        K = K.lower()
        if not K in self._reserved:  # noqa: E713 - the stock body's words
            raise CookieError("Invalid Attribute %s" % K)  # noqa: F821
        dict.__setitem__(self, K, V)

    def set(self, key, val, coded_val, LegalChars=None, idmap=None, translate=None):
        if key.lower() in self._reserved:
            raise CookieError("Attempt to set a reserved key: %s" % key)  # noqa: F821
        if "" != translate(key, idmap, LegalChars):
            raise CookieError("Illegal key value: %s" % key)  # noqa: F821
        self.key = key
        self.value = val
        self.coded_value = coded_val


# The copies. Each runs in the stock module's namespace (a function with a closure or
# defaults misses CPython's fast call path before 3.11, and 2.7's; so do the copies'
# defaults, but only where the stock has them too): the stock body's names
# (CookieError, _is_legal_key, _LegalChars) read at each call, as the stock body reads
# them, builtins, and its helpers, each load of one a constant: ``_PLAIN(v)``,
# whether the ``str`` v holds no control character (one C-level test);
# ``_REFUSE(...)``, the exact test (``_morsel``'s), raising upstream's CookieError.
# flake8: the stock module's names are undefined here (F821), by design; the
# helpers' values here are placeholders.
_STR, _PLAIN, _REFUSE = str, None, None


class _Copies3(object):
    """3.x's (3.7-3.13 ``set``). In a class body, not a function: a nested function's
    code misses the fast call path too."""

    def __setitem__(self, K, V):
        K = K.lower()
        if not K in self._reserved:  # noqa: E713 - the stock body's words
            raise CookieError("Invalid attribute %r" % (K,))  # noqa: F821
        if type(V) is not _STR or not _PLAIN(V):
            _REFUSE(K, V)
        dict.__setitem__(self, K, V)

    def setdefault(self, key, val=None):
        key = key.lower()
        if key not in self._reserved:
            raise CookieError("Invalid attribute %r" % (key,))  # noqa: F821
        if type(val) is not _STR or not _PLAIN(val):
            _REFUSE(key, val)
        return dict.setdefault(self, key, val)

    def set(self, key, val, coded_val):
        if key.lower() in self._reserved:
            raise CookieError('Attempt to set a reserved key %r' % (key,))  # noqa: F821
        if not _is_legal_key(key):  # noqa: F821
            raise CookieError('Illegal key %r' % (key,))  # noqa: F821
        if not (type(val) is _STR and _PLAIN(val) and type(key) is _STR
                and (coded_val is val or type(coded_val) is _STR and _PLAIN(coded_val))):
            _REFUSE(key, val, coded_val)
        self._key = key
        self._value = val
        self._coded_value = coded_val


class _Copies36(object):
    """3.6's ``set`` (``LegalChars`` deprecated; the stock default is kept)."""

    def set(self, key, val, coded_val, LegalChars=None):
        if LegalChars != _LegalChars:  # noqa: F821
            import warnings
            warnings.warn(
                'LegalChars parameter is deprecated, ignored and will '
                'be removed in future versions.', DeprecationWarning,
                stacklevel=2)
        if key.lower() in self._reserved:
            raise CookieError('Attempt to set a reserved key %r' % (key,))  # noqa: F821
        if not _is_legal_key(key):  # noqa: F821
            raise CookieError('Illegal key %r' % (key,))  # noqa: F821
        if not (type(val) is _STR and _PLAIN(val) and type(key) is _STR
                and (coded_val is val or type(coded_val) is _STR and _PLAIN(coded_val))):
            _REFUSE(key, val, coded_val)
        self._key = key
        self._value = val
        self._coded_value = coded_val


class _Copies2(object):
    """2.7's (the stock defaults of ``set`` are kept)."""

    def __setitem__(self, K, V):
        K = K.lower()
        if not K in self._reserved:  # noqa: E713 - the stock body's words
            raise CookieError("Invalid Attribute %s" % K)  # noqa: F821
        if type(V) is not _STR or not _PLAIN(V):
            _REFUSE(K, V)
        dict.__setitem__(self, K, V)

    def set(self, key, val, coded_val, LegalChars=None, idmap=None, translate=None):
        if key.lower() in self._reserved:
            raise CookieError("Attempt to set a reserved key: %s" % key)  # noqa: F821
        if "" != translate(key, idmap, LegalChars):
            raise CookieError("Illegal key value: %s" % key)  # noqa: F821
        if not (type(val) is _STR and _PLAIN(val) and type(key) is _STR
                and (coded_val is val or type(coded_val) is _STR and _PLAIN(coded_val))):
            _REFUSE(key, val, coded_val)
        self.key = key
        self.value = val
        self.coded_value = coded_val


_FAMILIES = {"__setitem__": [(_Stock3, _Copies3), (_Stock2, _Copies2)],
             "setdefault": [(_Stock3, _Copies3)],
             "set": [(_Stock3, _Copies3), (_Stock36, _Copies36), (_Stock2, _Copies2)]}


def copy_of(original, name, plain, refuse):
    """The checked copy of the stock *original* (``Morsel.name``), or None where *original*
    is none of the stock bodies. *plain*, *refuse*: the copy's ``_PLAIN``, ``_REFUSE``."""
    return checked_copy(original, name, _FAMILIES[name],
                        {"_STR": str, "_PLAIN": plain, "_REFUSE": refuse})
