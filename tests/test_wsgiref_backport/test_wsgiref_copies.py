"""The ``Headers`` copies (``_headers_copies``) against ``_headers``' wrappers.

On 3.x (CPython 3.6-3.13, PyPy3) every ``Headers`` method gh-143916 checks
in ships as the stock body ``_headers_copies`` knows, on 2.7 all but
``add_header``, so the replacement is that body behind the wrapper's check,
in one function. The wrapper (check, then the original) stays for a body it
does not know (here: one put behind another function). Both must do the
same with every input: the same result and the same header list, or the
same exception with the same message.
"""

import types

import pytest

import wsgiref_backport
from wsgiref_backport import _headers, _headers_copies
from wsgiref_helpers import PY2, headers

METHODS = _headers.METHODS


class Text(str):
    """A ``str`` subclass: the stock 3.x ``_convert_string_type`` refuses it."""


NAMES = ["X-A", "x-a", "Content-Type", "X\r\nB", "X\tB", "\x7f", "caf\xe9", "", 7, None,
         Text("X-A")]
VALUES = ["v", "a b", "a\tb", "a\r\nSet-Cookie: x=y", "\x00", "\xa0", "", 3, None, Text("v")]
if not PY2:
    NAMES.append("X\u2028")
    VALUES.extend(["\u2028", b"v"])
START = [("X-A", "1"), ("Other", "2"), ("x-a", "3")]


def _behind(original):
    """*original* behind another function: not a stock body ``_headers_copies`` knows."""
    def other(*args, **kwargs):
        return original(*args, **kwargs)
    other.__name__ = original.__name__
    return other


def _classes():
    """``(copies, wrappers)``: Headers subclasses holding each kind of replacement."""
    stock, kind = vars(headers.Headers), type(headers.Headers)  # 2.7: a classic class
    behind = kind("Behind", (headers.Headers,), dict((m, _behind(stock[m])) for m in METHODS))
    fake = types.ModuleType("fake_headers")
    fake.Headers, fake._formatparam = behind, headers._formatparam
    made = []
    for module in (headers, fake):
        found = _headers.replacements(module)
        made.append(kind("H", (headers.Headers,),
                         dict((m, found["Headers." + m]) for m in METHODS)))
    return made


COPIES, WRAPPERS = _classes()


def _outcome(cls, call):
    h = cls(list(START))
    try:
        result = call(h)
    except Exception as error:  # noqa: B902 - every outcome is compared
        return type(error), str(error)
    return result, list(h._headers)


def _agree(call):
    assert _outcome(COPIES, call) == _outcome(WRAPPERS, call)


@pytest.mark.parametrize("name", [m for m in METHODS if not (PY2 and m == "add_header")])
def test_the_shipped_body_is_copied(name):
    original = vars(headers.Headers)[name]
    assert _headers_copies.copy_of(original, name, {}) is not None
    assert vars(COPIES)[name].__code__.co_filename != original.__code__.co_filename
    assert vars(COPIES)[name].__defaults__ == original.__defaults__


@pytest.mark.parametrize("name", METHODS)
def test_another_body_is_wrapped(name):
    other = _behind(vars(headers.Headers)[name])
    assert _headers_copies.copy_of(other, name, {}) is None


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("value", VALUES)
def test_setters_agree(name, value):
    _agree(lambda h: h.__setitem__(name, value))
    _agree(lambda h: h.setdefault(name, value))
    _agree(lambda h: h.add_header(name, value))
    _agree(lambda h: h.add_header("X-P", None, **{"p_q": value, "r": None}))
    _agree(lambda h: type(h)([(name, value), ("X-A", "1")])._headers)


@pytest.mark.parametrize("name", NAMES)
def test_readers_agree(name):
    _agree(lambda h: h.get(name, "default"))
    _agree(lambda h: h.get_all(name))
    _agree(lambda h: (h[name], name in h))
    _agree(lambda h: h.__delitem__(name))


def test_an_honest_response_is_the_stock_one():
    def build(h):
        h["Content-Type"] = "text/plain"
        h.add_header("Content-Disposition", "attachment", filename="a b.txt")
        h.setdefault("Cache-Control", "no-store")
        del h["Other"]
        return str(h), h.get_all("x-a"), "X-A" in h
    assert _outcome(COPIES, build) == _outcome(headers.Headers, build)


# A copy reads the stock module's names at each call, as the stock body does: a name
# rebound after patch() is honoured, and one overridden only while patch() ran (a test's
# mock.patch) is not kept once the override is undone.
def _marked(name, value):
    return name + "!" + value


def _parameter():
    h = headers.Headers([])
    h.add_header("X-P", "v", q="r")
    return h["X-P"]


def test_formatparam_rebound_after_patch_is_read(monkeypatch):
    wsgiref_backport.patch(force=True)
    monkeypatch.setattr(headers, "_formatparam", _marked)
    assert _parameter() == "v; q!r"


def test_formatparam_overridden_while_patching_is_not_kept(monkeypatch):
    monkeypatch.setattr(headers, "_formatparam", _marked)
    wsgiref_backport.patch(force=True)
    monkeypatch.undo()
    assert _parameter() == "v; " + headers._formatparam("q", "r")  # 2.7: q="r"


class Pairs(list):
    """2.7's ``Headers`` asks for ``type(headers) is ListType``: a list of another type."""


LIST_TYPE = pytest.mark.skipif(not PY2, reason="3.x's Headers reads no ListType")


@LIST_TYPE
def test_list_type_rebound_after_patch_is_read(monkeypatch):
    wsgiref_backport.patch(force=True)
    monkeypatch.setattr(headers, "ListType", Pairs)
    assert headers.Headers(Pairs())._headers == []
    with pytest.raises(TypeError):
        headers.Headers([])


@LIST_TYPE
def test_list_type_overridden_while_patching_is_not_kept(monkeypatch):
    monkeypatch.setattr(headers, "ListType", Pairs)
    wsgiref_backport.patch(force=True)
    monkeypatch.undo()
    assert headers.Headers([])._headers == []
    with pytest.raises(TypeError):
        headers.Headers(Pairs())
