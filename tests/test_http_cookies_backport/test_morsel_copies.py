"""The setters' copies (``_morsel_copies``) against ``_morsel``'s wrappers.

On every interpreter the package supports, ``Morsel.__setitem__``, ``set``
and (3.x) ``setdefault`` ship as one of the stock bodies ``_morsel_copies``
knows, so the replacement is the copy with upstream's check inlined. The
wrapper (check, then the original) stays for a body it does not know: here
it is made to be used by handing the makers a stock method behind another
function. Both must do the same with every input: the same store, or the
same exception with the same message.
"""

import sys
import warnings

import pytest

from http_cookies_backport import _morsel, _morsel_copies

if sys.version_info[0] == 2:
    import Cookie as cookies
    TEXTS = [u"/caf\xe9", u"a\nb", "caf\xc3\xa9", u"\x85"]
else:
    import http.cookies as cookies
    TEXTS = ["/caf\xe9", "\xa0", "\x85", "a\u2028b"]

METHODS = [name for name in ("__setitem__", "set", "setdefault") if name in vars(cookies.Morsel)]
MAKERS = {"__setitem__": _morsel._setitem, "set": _morsel._set, "setdefault": _morsel._setdefault}


class Text(str):
    """A ``str`` whose ``str()`` says otherwise: upstream checks ``str(value)``."""

    def __str__(self):
        return "x\r\ny"


VALUES = ["/", "/acme", "", "a b", "a\tb", "a\nb", "\x7f", "\x00", 3600, 0, True, None,
          1.5, Text("clean"), b"x\ny", ["x\ny"]] + TEXTS
KEYS = ["path", "Path", "MAX-AGE", "domain", "nope", "sid", "a\nb", "expires", 7]


def _stock(name):
    return vars(cookies.Morsel)[name]


def _behind(original):
    """*original* behind another function: no stock body ``_morsel_copies`` knows."""
    def other(*args, **kwargs):
        return original(*args, **kwargs)
    other.__name__ = original.__name__
    return other


def _outcome(method, args):
    morsel = cookies.Morsel()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = method(morsel, *args)
    except Exception as error:  # noqa: B902 - every outcome is compared
        return type(error), str(error)
    return result, dict(morsel), morsel.key, morsel.value, morsel.coded_value


@pytest.mark.parametrize("name", METHODS)
def test_the_shipped_body_is_copied(name):
    original = _stock(name)
    new = MAKERS[name](cookies, original)
    assert new.__code__.co_filename == _morsel_copies.__file__.replace(".pyc", ".py")
    assert new.__code__ is not original.__code__
    assert new.__defaults__ == original.__defaults__
    assert new.__module__ == original.__module__


@pytest.mark.parametrize("name", METHODS)
def test_another_body_is_wrapped(name):
    other = _behind(_stock(name))
    assert _morsel_copies.copy_of(other, name, str, None) is None
    new = MAKERS[name](cookies, other)
    assert new.__code__.co_filename != _morsel_copies.__file__.replace(".pyc", ".py")


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("value", VALUES)
def test_copy_and_wrapper_agree_on_attributes(key, value):
    for name in set(METHODS) - {"set"}:
        copy = MAKERS[name](cookies, _stock(name))
        wrapper = MAKERS[name](cookies, _behind(_stock(name)))
        assert _outcome(copy, (key, value)) == _outcome(wrapper, (key, value)), name


@pytest.mark.parametrize("key", ["sid", "a\nb", "path", "b c", Text("sid"), 7])
@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("same", [True, False])
def test_copy_and_wrapper_agree_on_set(key, value, same):
    coded = value if same else "q\x01"
    copy = _morsel._set(cookies, _stock("set"))
    wrapper = _morsel._set(cookies, _behind(_stock("set")))
    assert _outcome(copy, (key, value, coded)) == _outcome(wrapper, (key, value, coded))
    if not same and key == "sid":  # a legal key: refused for the coded value
        assert _outcome(copy, (key, value, coded))[0] is cookies.CookieError


def test_a_hostile_attribute_is_refused_by_the_copy():
    copy = _morsel._setitem(cookies, _stock("__setitem__"))
    with pytest.raises(cookies.CookieError) as caught:
        copy(cookies.Morsel(), "Path", "/\r\nX: 1")
    assert str(caught.value) == _morsel.MESSAGE + " 'path' '/\\r\\nX: 1'"


# A copy reads the stock module's names at each call, as the stock body does: a name
# rebound after patch() is honoured, and one overridden only while patch() ran (a test's
# mock.patch) is not kept once the override is undone.
EVIL = "a=b; Domain=evil.example"


class Refusal(cookies.CookieError):
    """Another CookieError class: which one a setter raises shows which name it read."""


def _raised(call):
    try:
        call()
    except Exception as error:  # noqa: B902 - which class was raised is the outcome
        return type(error)
    return None


def _reserved_refusals():
    """The classes ``morsel["nope"] = v`` and ``set("path", ...)`` raise (the stock
    bodies' own CookieError: an attribute that is none, a reserved key)."""
    return (_raised(lambda: cookies.Morsel().__setitem__("nope", "v")),
            _raised(lambda: cookies.Morsel().set("path", "v", "v")))


def test_cookie_error_rebound_after_patch_is_raised(cookies_unpatched, monkeypatch):
    cookies_unpatched.patch(force=True)
    monkeypatch.setattr(cookies, "CookieError", Refusal)
    assert _reserved_refusals() == (Refusal, Refusal)


def test_cookie_error_overridden_while_patching_is_not_kept(cookies_unpatched, monkeypatch):
    monkeypatch.setattr(cookies, "CookieError", Refusal)
    cookies_unpatched.patch(force=True)
    monkeypatch.undo()
    assert _reserved_refusals() == (cookies.CookieError, cookies.CookieError)


LEGAL_KEY = pytest.mark.skipif(not hasattr(cookies, "_is_legal_key"),
                               reason="2.7's set() tests the key with its translate argument")


@LEGAL_KEY
def test_is_legal_key_rebound_after_patch_is_read(cookies_unpatched, monkeypatch):
    cookies_unpatched.patch(force=True)
    monkeypatch.setattr(cookies, "_is_legal_key", lambda key: key != "sid")
    assert _raised(lambda: cookies.Morsel().set("sid", "v", "v")) is cookies.CookieError
    morsel = cookies.Morsel()
    morsel.set(EVIL, "v", "v")
    assert morsel.key == EVIL


@LEGAL_KEY
def test_is_legal_key_overridden_while_patching_is_not_kept(cookies_unpatched, monkeypatch):
    monkeypatch.setattr(cookies, "_is_legal_key", lambda key: True)
    cookies_unpatched.patch(force=True)
    monkeypatch.undo()
    assert _raised(lambda: cookies.Morsel().set(EVIL, "v", "v")) is cookies.CookieError
    assert _raised(lambda: cookies.Morsel().set("sid", "v", "v")) is None
