"""The fix: no control characters in a cookie's key, value or attributes
(CVE-2026-0672, gh-143919; CVE-2026-3644, gh-145599).

An unfixed ``Morsel`` stores whatever it is given, and ``output()`` writes
it into a ``Set-Cookie`` header as it is: ``c["a"]["path"] = "/\\r\\nX: 1"``
adds a header of the attacker's (header injection, response splitting).

- gh-143919 (CVE-2026-0672; PR gh-143920, 3.10-3.14 backports gh-144089 to
  gh-144094): ``Morsel.__setitem__``, ``Morsel.setdefault`` and ``Morsel.set``
  refuse a key, value or coded value holding a C0 control character or DEL
  (``[\\x00-\\x1f\\x7f]`` in ``str()`` of it), and ``BaseCookie.output``
  refuses a morsel whose written line holds one (what was stored around
  the setters).
- gh-145599 (CVE-2026-3644; commit 57e88c1c, PR gh-145600, 3.10 backport
  gh-146027): the same for ``Morsel.update``, ``Morsel.__ior__`` (3.9+:
  ``dict``'s ``|=`` stored around ``update``), ``Morsel.__setstate__``
  (unpickling) and ``Morsel.js_output`` (which ``BaseCookie.js_output`` calls).

Each replacement checks as upstream's fixed code does, in its order, with
its exception (``CookieError``) and message, then calls the original, so an
honest call gives what the stock one gives. Where upstream's check comes
after the original's own (an invalid attribute, a reserved or illegal key),
the original's error is raised, in the original's words. ``__ior__`` has no
original of its own: it checks, then calls ``dict.__ior__`` as the stock
class does (upstream's calls ``update``, which also lowercases and refuses
non-reserved keys: an honest ``|=`` is left as the stock one does it).

2.7's ``Morsel`` has no ``update``, ``setdefault`` or ``__setstate__`` of
its own (``dict``'s, which store unchecked) and no upstream fix: its
``__setitem__``, ``set``, ``js_output`` and ``BaseCookie.output`` are fixed,
so a cookie written through ``BaseCookie`` is refused however it was filled.
"""

import re
import sys

__all__ = ["needs_fix", "replacements", "lacks", "functions", "CVE_SETTERS", "CVE_MORE",
           "has_control_character"]

#: The rows' CVEs: the setters and ``output`` (gh-143919: this module's ``needs_fix`` and
#: ``replacements``), the rest (gh-145599: ``_morsel_update``'s, from :func:`lacks` and
#: :func:`functions`).
CVE_SETTERS, CVE_MORE = "CVE-2026-0672", "CVE-2026-3644"

# Python 2/3 differences, in one place. Upstream checks ``str(value)``; on 2.7 a
# unicode value (or one whose ``str()`` is unicode) is checked as unicode, since
# ``str()`` of non-ASCII unicode raises where the stock setter stores it. Types
# whose ``str()`` is digits (and bools) never hold one. On 3.x a printable ``str``
# (no C0, no DEL) is clean by ``str.isprintable`` alone, in C.
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
_MESSAGE = "Control characters are not allowed in cookies"


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


def _update(module, original):
    """gh-145599: ``morsel.update(values)``, each pair checked in the order upstream's
    loop takes; the first invalid attribute is left to the original to refuse."""
    error = module.CookieError

    def update(self, values):
        data = dict(values)
        reserved = self._reserved
        for key, val in data.items():
            key = key.lower()
            if key not in reserved:
                break
            if _has(key) or _has(val):
                raise error("%s %r %r" % (_MESSAGE, key, val))
        return original(self, data)
    return update


def _ior(module, original):
    """gh-145599: ``morsel |= values`` (3.9+), refused where upstream's ``update`` refuses
    a pair holding a control character; otherwise ``dict.__ior__``, as stock."""
    error = module.CookieError

    def __ior__(self, values):
        data = dict(values)
        for key, val in data.items():
            if _has(key) or _has(val):
                key = key.lower()
                if key not in self._reserved:
                    raise error("Invalid attribute %r" % (key,))
                raise error("%s %r %r" % (_MESSAGE, key, val))
        return original(self, data)
    return __ior__


def _setstate(module, original):
    """gh-145599: unpickling a morsel checks its key, value and coded value."""
    error = module.CookieError

    def __setstate__(self, state):
        key, value, coded = state["key"], state["value"], state["coded_value"]
        if _has(key) or _has(value) or _has(coded):
            raise error("%s %r %r %r" % (_MESSAGE, key, value, coded))
        return original(self, state)
    return __setstate__


def _js_output(module, original, shape):
    """gh-145599: ``morsel.js_output()`` refuses a line holding a control character.

    *shape*: where the stock template puts the line (``OutputString``'s text,
    only ``"`` escaped) and how many line feeds it holds, read from a probe:
    the template holds no other control character, so a text with those line
    feeds and a clean line in its place came from a clean line."""
    error, fast = module.CookieError, _fast
    start, tail, newlines = shape

    def js_output(self, attrs=None):
        text = original(self, attrs)
        if text.count("\n") != newlines or not fast(text[start:len(text) - tail]):
            if text.count("\n") != newlines or _has(text.replace("\n", "")):
                raise error(_MESSAGE)
        return text
    return js_output


def _shape(module, js_output):
    """``(start, tail, line feeds)`` of the template *js_output* writes a probe's line into."""
    text = js_output(_probe_morsel(module), None)
    start = text.index("a=b")
    return start, len(text) - start - 3, text.count("\n")


def _probe_morsel(module):
    morsel = module.Morsel()
    morsel.set("a", "b", "b")
    return morsel


def _refuses(call, module):
    try:
        call()
    except module.CookieError:
        return True
    return False


def lacks(module, cve):
    """Whether the cookie *module* lacks *cve*'s part (tried on throw-away morsels)."""
    own = vars(module.Morsel)
    if cve == CVE_SETTERS:
        return not (_refuses(lambda: module.Morsel().__setitem__("path", "/\n"), module)
                    and _refuses(lambda: module.Morsel().set("a", "b\n", "b"), module))
    morsel = _probe_morsel(module)
    dict.__setitem__(morsel, "domain", "x\ny")
    if not _refuses(lambda: morsel.js_output(), module):
        return True
    return "update" in own and not _refuses(
        lambda: module.Morsel().update({"path": "/\n"}), module)


def needs_fix(module):
    """Whether the cookie *module* (as it ships) lacks gh-143919: a throw-away morsel
    takes a path, or a value, holding a line feed."""
    return lacks(module, CVE_SETTERS)


def replacements(module):
    """gh-143919's ``{"Class.attr": new}``: ``Morsel.__setitem__``, ``set``, ``setdefault``
    (3.x), ``BaseCookie.output`` and its ``__str__``."""
    return functions(module, CVE_SETTERS)


def functions(module, cve):
    """*cve*'s ``{"Class.attr": new}``, each around the class's own function as it is now
    (``__ior__``: around ``dict``'s, which the class has none of its own before)."""
    morsel, cookie = vars(module.Morsel), vars(module.BaseCookie)
    found = {}

    def put(cls, name, make, *extra):
        own = vars(getattr(module, cls))
        original = own[name] if name in own else getattr(dict, name)
        path = cls + "." + name
        found[path] = _named(make(module, original, *extra), original, path)
        return found[path]

    if cve == CVE_SETTERS:
        put("Morsel", "__setitem__", _setitem)
        put("Morsel", "set", _set)
        if "setdefault" in morsel:
            put("Morsel", "setdefault", _setdefault)
        new = put("BaseCookie", "output", _output)
        if cookie.get("__str__") is cookie["output"]:  # ``__str__ = output``, as upstream's
            found["BaseCookie.__str__"] = new
    if cve == CVE_MORE:
        if "update" in morsel:
            put("Morsel", "update", _update)
        if "__setstate__" in morsel:
            put("Morsel", "__setstate__", _setstate)
        if hasattr(dict, "__ior__"):
            put("Morsel", "__ior__", _ior)
        put("Morsel", "js_output", _js_output, _shape(module, morsel["js_output"]))
    return found
