"""The fix of CVE-2026-3644 (gh-145599, commit 57e88c1c, PR gh-145600; 3.10 backport
gh-146027): control characters refused in more places of ``Morsel``.

gh-143919 left ``Morsel.update`` (and ``dict``'s ``|=``, 3.9+, which stores
around it), unpickling (``__setstate__``) and ``Morsel.js_output`` (which
``BaseCookie.js_output`` calls) taking them; gh-145599 refuses them there,
with ``CookieError`` and upstream's message, each replacement around the
original (``__ior__``: around ``dict``'s, the class having none of its own).
Upstream's ``__ior__`` calls ``update``, which also lowercases names and
refuses non-reserved ones: here an honest ``|=`` stores as the stock one does.
2.7's ``Morsel`` has no ``update`` or ``__setstate__`` of its own (and no
upstream fix): only ``js_output`` is fixed there (``BaseCookie.output``,
gh-143919's, refuses what ``dict.update`` stored when the cookie is written).
The checks and helpers are ``_morsel``'s (gh-143919).
"""

from ._morsel import MESSAGE, around, fast_clean, probe_morsel, refuses
from ._morsel import has_control_character as _has

__all__ = ["needs_fix", "replacements"]


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
                raise error("%s %r %r" % (MESSAGE, key, val))
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
                raise error("%s %r %r" % (MESSAGE, key, val))
        return original(self, data)
    return __ior__


def _setstate(module, original):
    """gh-145599: unpickling a morsel checks its key, value and coded value."""
    error = module.CookieError

    def __setstate__(self, state):
        key, value, coded = state["key"], state["value"], state["coded_value"]
        if _has(key) or _has(value) or _has(coded):
            raise error("%s %r %r %r" % (MESSAGE, key, value, coded))
        return original(self, state)
    return __setstate__


def _js_output(module, original, shape):
    """gh-145599: ``morsel.js_output()`` refuses a line holding a control character.

    *shape*: where the stock template puts the line (``OutputString``'s text,
    only ``"`` escaped) and how many line feeds it holds, read from a probe:
    the template holds no other control character, so a text with those line
    feeds and a clean line in its place came from a clean line."""
    error, fast = module.CookieError, fast_clean
    start, tail, newlines = shape

    def js_output(self, attrs=None):
        text = original(self, attrs)
        if text.count("\n") != newlines or not fast(text[start:len(text) - tail]):
            if text.count("\n") != newlines or _has(text.replace("\n", "")):
                raise error(MESSAGE)
        return text
    return js_output


def _shape(module, js_output):
    """``(start, tail, line feeds)`` of the template *js_output* writes a probe's line into."""
    text = js_output(probe_morsel(module), None)
    start = text.index("a=b")
    return start, len(text) - start - 3, text.count("\n")


def needs_fix(module):
    """Whether the cookie *module* (as it ships) lacks gh-145599: a throw-away morsel's
    ``js_output()`` writes a domain holding a line feed, or its ``update()`` takes one."""
    morsel = probe_morsel(module)
    dict.__setitem__(morsel, "domain", "x\ny")
    if not refuses(module, morsel.js_output):
        return True
    return "update" in vars(module.Morsel) and not refuses(
        module, lambda: module.Morsel().update({"path": "/\n"}))


def replacements(module):
    """gh-145599's ``{"Class.attr": new}``: ``Morsel.update`` and ``__setstate__`` (3.x),
    ``__ior__`` (3.9+) and ``js_output``."""
    own, found = vars(module.Morsel), {}
    if "update" in own:
        around(module, found, "Morsel", "update", _update)
    if "__setstate__" in own:
        around(module, found, "Morsel", "__setstate__", _setstate)
    if hasattr(dict, "__ior__"):
        around(module, found, "Morsel", "__ior__", _ior)
    around(module, found, "Morsel", "js_output", _js_output, _shape(module, own["js_output"]))
    return found
