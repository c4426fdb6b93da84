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

__all__ = ["needs_fix", "replacements", "CVE_SETTERS", "CVE_MORE", "has_control_character"]

#: The rows' CVEs: the setters and ``output`` (gh-143919), the rest (gh-145599).
CVE_SETTERS, CVE_MORE = "CVE-2026-0672", "CVE-2026-3644"

# Python 2/3 differences, in one place. Upstream checks ``str(value)``; on 2.7 a
# unicode value (or one whose ``str()`` is unicode) is checked as unicode, since
# ``str()`` of non-ASCII unicode raises where the stock setter stores it.
if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    _STR = str

    def _text(value):
        if isinstance(value, basestring):  # noqa: F821 - 2.7's name
            return value
        try:
            return str(value)
        except UnicodeError:
            return unicode(value)  # noqa: F821 - 2.7's name

    _printable = None
else:
    _STR = str
    _text = str
    _printable = str.isprintable

#: gh-143919's class: the C0 control characters and DEL.
_CONTROL = re.compile(u"[\x00-\x1f\x7f]")
_search = _CONTROL.search


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
    error = module.CookieError

    def __setitem__(self, K, V):
        if _has(V) or _has(K):
            key = K.lower()
            if key in self._reserved:
                raise error("%s %r %r" % (_MESSAGE, key, V))
        return original(self, K, V)
    return __setitem__


def _setdefault(module, original):
    """gh-143919: ``morsel.setdefault(key, val)``, as ``__setitem__``."""
    error = module.CookieError

    def setdefault(self, key, val=None):
        if _has(val) or _has(key):
            lowered = key.lower()
            if lowered in self._reserved:
                raise error("%s %r %r" % (_MESSAGE, lowered, val))
        return original(self, key, val)
    return setdefault


def _set(module, original):
    """gh-143919: ``morsel.set(key, val, coded_val)``; the original's reserved and illegal
    key errors first (run on a scratch morsel: nothing of *self* changes)."""
    error = module.CookieError

    def set(self, key, val, coded_val, *args, **kwargs):  # 2.7, 3.6: LegalChars, ...
        if _has(val) or _has(coded_val) or _has(key):
            cls = type(self)
            original(cls.__new__(cls), key, val, coded_val, *args, **kwargs)
            raise error("%s %r %r %r" % (_MESSAGE, key, val, coded_val))
        return original(self, key, val, coded_val, *args, **kwargs)
    return set


def _output(module, original):
    """gh-143919: ``cookie.output()`` refuses a morsel whose line holds a control character.

    One pass over the joined text: where *sep* holds a control character, the
    ``len(self) - 1`` separators are taken out first; a morsel line holding
    *sep* makes more of them, and holds its control character."""
    error = module.CookieError

    def output(self, attrs=None, header="Set-Cookie:", sep="\015\012"):
        text = original(self, attrs, header, sep)
        if not _has(text):
            return text
        if not _has(sep) or text.count(sep) != len(self) - 1 or _has(text.replace(sep, "")):
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


def _js_output(module, original, newlines):
    """gh-145599: ``morsel.js_output()`` refuses a line holding a control character.

    The stock template holds *newlines* line feeds and no other control
    character, and ``OutputString``'s text goes in with only ``"`` escaped:
    any more line feeds, or any other control character, came from the line."""
    error = module.CookieError

    def js_output(self, attrs=None):
        text = original(self, attrs)
        if text.count("\n") != newlines or _has(text.replace("\n", "")):
            raise error(_MESSAGE)
        return text
    return js_output


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


def _lacks(module, cve):
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


def needs_fix(module, cve=None):
    """Whether the cookie *module* (as it ships) stores or writes a control character:
    tried on throw-away morsels. *cve*: one row's part (default: either)."""
    return any(_lacks(module, each) for each in ((cve,) if cve else (CVE_SETTERS, CVE_MORE)))


def replacements(module, cve=None):
    """``{"Class.attr": new}`` of the fixes (*cve*: one row's part; default: both),
    each around the class's own function as it is now."""
    morsel, cookie = vars(module.Morsel), vars(module.BaseCookie)
    found = {}

    def put(cls, name, make, *extra):
        own = vars(getattr(module, cls))
        original = own[name] if name in own else getattr(dict, name)
        path = cls + "." + name
        found[path] = _named(make(module, original, *extra), original, path)
        return found[path]

    if cve in (None, CVE_SETTERS):
        put("Morsel", "__setitem__", _setitem)
        put("Morsel", "set", _set)
        if "setdefault" in morsel:
            put("Morsel", "setdefault", _setdefault)
        new = put("BaseCookie", "output", _output)
        if cookie.get("__str__") is cookie["output"]:  # ``__str__ = output``, as upstream's
            found["BaseCookie.__str__"] = new
    if cve in (None, CVE_MORE):
        if "update" in morsel:
            put("Morsel", "update", _update)
        if "__setstate__" in morsel:
            put("Morsel", "__setstate__", _setstate)
        if hasattr(dict, "__ior__"):
            put("Morsel", "__ior__", _ior)
        js_output = morsel["js_output"]
        put("Morsel", "js_output", _js_output,
            js_output(_probe_morsel(module), None).count("\n"))
    return found
