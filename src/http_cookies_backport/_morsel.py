"""The fix of CVE-2026-0672 (gh-143919; PR gh-143920, backports gh-144089 to gh-144094):
no control characters in a cookie's key, value or attributes; and the checks
``_morsel_update`` (CVE-2026-3644, gh-145599) shares.

An unfixed ``Morsel`` stores whatever it is given, and ``output()`` writes
it into a ``Set-Cookie`` header as it is: ``c["a"]["path"] = "/\\r\\nX: 1"``
adds a header of the attacker's (header injection, response splitting).
gh-143919: ``Morsel.__setitem__``, ``Morsel.setdefault`` and ``Morsel.set``
refuse a key, value or coded value holding a C0 control character or DEL
(``[\\x00-\\x1f\\x7f]`` in ``str()`` of it), and ``BaseCookie.output``
refuses a morsel whose written line holds one (what was stored around the
setters).

Each replacement checks as upstream's fixed code does, in its order, with
its exception (``CookieError``) and message, then calls the original, so an
honest call gives what the stock one gives. Where upstream's check comes
after the original's own (an invalid attribute, a reserved or illegal key),
the original's error is raised, in the original's words.

2.7 got no upstream fix; its ``Morsel`` has no ``setdefault`` of its own
(``dict``'s, which stores unchecked): ``__setitem__``, ``set`` and
``BaseCookie.output`` are fixed, so a cookie written through ``BaseCookie``
is refused however it was filled.
"""

import re
import sys

from _cpython_security._plain import is_plain as _plain_str

from ._morsel_copies import copy_of

__all__ = ["needs_fix", "replacements", "has_control_character", "fast_clean", "MESSAGE",
           "probe_morsel", "refuses", "around"]

# Python 2/3 differences, in one place. Upstream checks ``str(value)``; on 2.7 a
# unicode value (or one whose ``str()`` is unicode) is checked as unicode, since
# ``str()`` of non-ASCII unicode raises where the stock setter stores it. Types
# whose ``str()`` is digits (and bools) never hold one. On 3.x a printable ``str``
# (no C0, no DEL) is clean by ``str.isprintable`` alone, in C. The copies' test,
# only ever given a native ``str``, is the header guards' shared ``is_plain``.
if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    _NUMBERS = frozenset([int, long, bool])  # noqa: F821 - 2.7's name

    def _text(value):
        if isinstance(value, basestring):  # noqa: F821 - 2.7's name
            return value
        try:
            return str(value)
        except UnicodeError:
            return unicode(value)  # noqa: F821 - 2.7's name

    _printable = None
else:
    _NUMBERS = frozenset([int, bool])
    _text = str
    _printable = str.isprintable

_STR = str
#: gh-143919's class: the C0 control characters and DEL.
_CONTROL = re.compile(u"[\x00-\x1f\x7f]")
_search = _CONTROL.search
#: Truthy for a text holding none (one linear pass, in C): 2.7's fast path.
_clean = re.compile(u"[^\x00-\x1f\x7f]*\\Z").match
_fast = _printable or _clean


def has_control_character(value):
    """Whether ``str(value)`` holds a C0 control character or DEL (upstream's
    ``_has_control_character``, for one value). On 3.x a printable ``str``
    (no C0, no DEL) is answered by ``str.isprintable`` alone."""
    if type(value) is not _STR:
        value = _text(value)
    elif _printable is not None and _printable(value):
        return False
    return _search(value) is not None


_has = has_control_character
#: Upstream's message, alone (output) or before the reprs of what was refused.
MESSAGE = _MESSAGE = "Control characters are not allowed in cookies"
#: Truthy where a ``str`` (3.x) or a text (2.7) surely holds no control character.
fast_clean = _fast


def _named(new, original, qualname):
    """*new* under the original's name and docstring (and ``__qualname__`` on 3.x)."""
    new.__name__ = original.__name__
    new.__doc__ = original.__doc__
    if hasattr(new, "__qualname__"):
        new.__qualname__ = qualname
    return new


def _setitem(module, original):
    """gh-143919: ``morsel[K] = V``; an invalid attribute is the original's error first."""
    error, string, fast, numbers = module.CookieError, _STR, _fast, _NUMBERS

    def refuse(key, V):  # the copy's exact test, *key* found reserved
        if type(V) not in numbers and (_has(V) or _has(key)):
            raise error("%s %r %r" % (_MESSAGE, key, V))
    copy = copy_of(original, "__setitem__", _plain_str, refuse)
    if copy is not None:
        return copy

    def __setitem__(self, K, V):
        # A key holding a control character is never reserved: the original refuses it
        # first, as upstream's check of it comes after that.
        if (type(V) is string and fast(V)) or type(V) in numbers:
            return original(self, K, V)
        if _has(V) or _has(K):
            key = K.lower()
            if key in self._reserved:
                raise error("%s %r %r" % (_MESSAGE, key, V))
        return original(self, K, V)
    return __setitem__


def _setdefault(module, original):
    """gh-143919: ``morsel.setdefault(key, val)``, as ``__setitem__``."""
    error, string, fast, numbers = module.CookieError, _STR, _fast, _NUMBERS

    def refuse(key, val):  # the copy's exact test, *key* found reserved
        if type(val) not in numbers and (_has(val) or _has(key)):
            raise error("%s %r %r" % (_MESSAGE, key, val))
    copy = copy_of(original, "setdefault", _plain_str, refuse)
    if copy is not None:
        return copy

    def setdefault(self, key, val=None):
        if (type(val) is string and fast(val)) or type(val) in numbers:
            return original(self, key, val)
        if _has(val) or _has(key):
            lowered = key.lower()
            if lowered in self._reserved:
                raise error("%s %r %r" % (_MESSAGE, lowered, val))
        return original(self, key, val)
    return setdefault


def _set(module, original):
    """gh-143919: ``morsel.set(key, val, coded_val)``; the original's reserved and illegal
    key errors first (run on a scratch morsel: nothing of *self* changes). 3.7+'s takes
    no more arguments: its replacement takes none either (no ``*args`` to pack)."""
    error, string, fast = module.CookieError, _STR, _fast

    def refuse_copy(key, val, coded_val):  # the copy's exact test, *key* found legal
        if _has(val) or _has(coded_val) or _has(key):
            raise error("%s %r %r %r" % (_MESSAGE, key, val, coded_val))
    copy = copy_of(original, "set", _plain_str, refuse_copy)
    if copy is not None:
        return copy

    def refuse(self, key, val, coded_val, args, kwargs):
        if _has(val) or _has(coded_val) or _has(key):
            cls = type(self)
            original(cls.__new__(cls), key, val, coded_val, *args, **kwargs)
            raise error("%s %r %r %r" % (_MESSAGE, key, val, coded_val))

    def set(self, key, val, coded_val):
        if not (type(val) is string and type(coded_val) is string and type(key) is string
                and fast(key + val + coded_val)):
            refuse(self, key, val, coded_val, (), {})
        return original(self, key, val, coded_val)

    def set_more(self, key, val, coded_val, *args, **kwargs):  # 2.7, 3.6: LegalChars, ...
        if not (type(val) is string and type(coded_val) is string and type(key) is string
                and fast(key + val + coded_val)):
            refuse(self, key, val, coded_val, args, kwargs)
        return original(self, key, val, coded_val, *args, **kwargs)
    return set if original.__code__.co_argcount == 4 else set_more


def _output(module, original):
    """gh-143919: ``cookie.output()`` refuses a morsel whose line holds a control character.

    The lines are joined by *sep*: with the ``len(self) - 1`` first copies of
    *sep* taken out, what is left holds exactly the lines' characters, so it
    holds none iff no line does. Anything else (an unprintable character,
    a line holding *sep*) is decided by upstream's test of each line's text."""
    error, fast = module.CookieError, _fast

    def output(self, attrs=None, header="Set-Cookie:", sep="\015\012"):
        text = original(self, attrs, header, sep)
        if fast(text) or fast(text.replace(sep, "", len(self) - 1)):
            return text
        if _has(sep):
            if text.count(sep) != len(self) - 1 or _has(text.replace(sep, "")):
                raise error(_MESSAGE)
        elif _has(text):
            raise error(_MESSAGE)
        return text
    return output


def probe_morsel(module):
    """A throw-away morsel holding an honest cookie ``a=b``."""
    morsel = module.Morsel()
    morsel.set("a", "b", "b")
    return morsel


def refuses(module, call):
    """Whether *call()* raises the cookie *module*'s ``CookieError``."""
    try:
        call()
    except module.CookieError:
        return True
    return False


def around(module, found, cls, name, make, *extra):
    """Put in *found* the replacement *make* builds around the class's own *name* as it is
    now (or ``dict``'s, which the class inherits), under its name; return it."""
    own = vars(getattr(module, cls))
    original = own[name] if name in own else getattr(dict, name)
    path = cls + "." + name
    found[path] = _named(make(module, original, *extra), original, path)
    return found[path]


def needs_fix(module):
    """Whether the cookie *module* (as it ships) lacks gh-143919: a throw-away morsel
    takes a path, or a value, holding a line feed."""
    return not (refuses(module, lambda: module.Morsel().__setitem__("path", "/\n"))
                and refuses(module, lambda: module.Morsel().set("a", "b\n", "b")))


def replacements(module):
    """gh-143919's ``{"Class.attr": new}``: ``Morsel.__setitem__``, ``set``, ``setdefault``
    (3.x), ``BaseCookie.output`` and its ``__str__`` (``__str__ = output``, as upstream's)."""
    found = {}
    around(module, found, "Morsel", "__setitem__", _setitem)
    around(module, found, "Morsel", "set", _set)
    if "setdefault" in vars(module.Morsel):
        around(module, found, "Morsel", "setdefault", _setdefault)
    cookie = vars(module.BaseCookie)
    new = around(module, found, "BaseCookie", "output", _output)
    if cookie.get("__str__") is cookie["output"]:
        found["BaseCookie.__str__"] = new
    return found
