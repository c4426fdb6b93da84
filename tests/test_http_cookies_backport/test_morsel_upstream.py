"""The Morsel fixes against upstream's tests (CVE-2026-0672, gh-143919; CVE-2026-3644, gh-145599).

Mirrors CPython's ``test_http_cookies.MorselTests.test_control_characters``
and ``test_control_characters_output`` as gh-143919 added them and gh-145599
extended them (``__setstate__``, ``update``, ``|=``, ``js_output``), then the
issue's own cases with upstream's messages, what differs on 2.7, and
patch()/unpatch() by identity.
"""

import pickle
import sys

import pytest

import cookie_helpers as helpers
from http_cookies_backport import is_vulnerable, status

PY2 = sys.version_info[0] == 2
#: test.support.control_characters_c0(): the C0 control characters and DEL.
C0 = [chr(code) for code in range(32)] + ["\x7f"]
MESSAGE = "Control characters are not allowed in cookies"
OWN = {"Morsel": ["__setitem__", "set", "js_output"] + ([] if PY2 else [
    "setdefault", "update", "__setstate__"]), "BaseCookie": ["output", "__str__"]}


@pytest.fixture
def cookies(cookies_unpatched):
    """The stdlib cookie module, with the package patched (force: the interpreter's own
    fix, were it there, would hide the package's)."""
    cookies_unpatched.patch(force=True)
    return helpers.stdlib()


def _refused(module, call, *args):
    with pytest.raises(module.CookieError) as caught:
        call(*args)
    return str(caught.value)


def _attr(morsel, key, value):
    morsel[key] = value


def test_the_interpreter_lacks_both_fixes():
    """Measured on every interpreter of the matrix (the probes try a throw-away morsel):
    none refuses a control character, so the package has work on each."""
    assert is_vulnerable()
    fixes = status()["fixes"]
    assert fixes["CVE-2026-0672"]["lacks"] and fixes["CVE-2026-3644"]["lacks"]


@pytest.mark.parametrize("c0", C0, ids=[repr(c) for c in C0])
def test_cpython_control_characters(cookies, c0):
    """CPython's MorselTests.test_control_characters (gh-143919, gh-145599)."""
    morsel = cookies.Morsel()
    _refused(cookies, _attr, morsel, c0, "val")  # .__setitem__()
    _refused(cookies, _attr, morsel, "path", c0)
    _refused(cookies, morsel.set, c0, "val", "coded-value")  # .set()
    _refused(cookies, morsel.set, "path", c0, "coded-value")
    _refused(cookies, morsel.set, "path", "val", c0)
    if PY2:  # 2.7's Morsel has none of these of its own (test_27_*)
        return
    _refused(cookies, morsel.setdefault, "path", c0)  # .setdefault()
    _refused(cookies, morsel.setdefault, c0, "val")
    for state in ({"key": c0, "value": "val", "coded_value": "coded"},  # .__setstate__()
                  {"key": "key", "value": c0, "coded_value": "coded"},
                  {"key": "key", "value": "val", "coded_value": c0}):
        _refused(cookies, morsel.__setstate__, state)
    _refused(cookies, morsel.update, {"path": c0})  # .update()
    _refused(cookies, morsel.update, {c0: "val"})
    if hasattr(dict, "__ior__"):  # .__ior__() (3.9+)
        _refused(cookies, morsel.__ior__, {"path": c0})
        _refused(cookies, morsel.__ior__, {c0: "val"})
    assert dict(morsel) == dict(cookies.Morsel())  # nothing was stored


def _morsel_with(module, name, c0):
    """CPython's test: a morsel whose private key or coded value is overridden."""
    morsel = module.Morsel()
    morsel.set("key", "value", "coded-value")
    if PY2:
        setattr(morsel, name, c0)
    else:
        morsel.__dict__["_" + name] = c0
    cookie = module.SimpleCookie()
    cookie["cookie"] = morsel
    if PY2:  # 2.7's BaseCookie.__setitem__ takes no Morsel as it is
        dict.__setitem__(cookie, "cookie", morsel)
    return cookie


@pytest.mark.parametrize("c0", C0, ids=[repr(c) for c in C0])
def test_cpython_control_characters_output(cookies, c0):
    """CPython's MorselTests.test_control_characters_output: output() and js_output()
    refuse what was stored around the setters."""
    for name in ("key", "coded_value"):
        cookie = _morsel_with(cookies, name, c0)
        assert _refused(cookies, cookie.output) == MESSAGE
        assert _refused(cookies, cookie.js_output) == MESSAGE
        assert _refused(cookies, str, cookie) == MESSAGE  # __str__ = output


def test_issue_cases_with_upstreams_messages(cookies):
    """The brief's cases: an attribute, set()'s value and coded value, js_output's domain."""
    cookie = cookies.SimpleCookie()
    cookie["a"] = "b"
    assert _refused(cookies, _attr, cookie["a"], "path", "/\r\nX-Injected: 1") == (
        "%s 'path' '/\\r\\nX-Injected: 1'" % MESSAGE)
    assert _refused(cookies, cookies.Morsel().set, "k", "v\n", "v") == (
        "%s 'k' 'v\\n' 'v'" % MESSAGE)
    assert _refused(cookies, cookies.Morsel().set, "k", "v", "v\r") == (
        "%s 'k' 'v' 'v\\r'" % MESSAGE)
    dict.__setitem__(cookie["a"], "domain", "example.com\nX-Injected: 1")
    assert _refused(cookies, cookie.js_output) == MESSAGE
    assert _refused(cookies, cookie.output) == MESSAGE
    assert cookie["a"]["path"] == ""  # the refused path was not stored


def test_the_originals_own_errors_come_first(cookies):
    """Upstream checks control characters after the reserved and legal key checks."""
    morsel = cookies.Morsel()
    reserved = _refused(cookies, morsel.set, "path", "v\n", "v")
    assert reserved.startswith("Attempt to set a reserved key")
    illegal = _refused(cookies, morsel.set, "a b", "v\n", "v")
    assert illegal.startswith("Illegal key")
    invalid = _refused(cookies, _attr, morsel, "nonsense", "v\n")
    assert invalid.lower().startswith("invalid attribute")
    assert morsel.key is None  # the scratch morsel took the key checks, not this one


def test_load_refuses_an_escaped_control_character(cookies):
    """gh-143919's test_basic change: ``fudge=\\012`` decodes to a line feed, which
    Morsel.set now refuses, so loading the cookie raises (3.x: before any is kept)."""
    cookie = cookies.SimpleCookie()
    assert _refused(cookies, cookie.load, 'keebler="E=mc2; fudge=\\012;"').startswith(MESSAGE)
    cookie.load('keebler="E=mc2; L=\\"Loves\\"; fudge=;"')
    assert cookie.output() == 'Set-Cookie: keebler="E=mc2; L=\\"Loves\\"; fudge=;"'


def test_pickled_morsels_round_trip_and_a_hostile_pickle_is_refused(cookies):
    cookie = cookies.SimpleCookie('Customer="WILE_E_COYOTE"; Path=/acme; Version=1')
    again = pickle.loads(pickle.dumps(cookie))
    assert again.output() == cookie.output()
    if PY2:
        return
    morsel = cookies.Morsel()
    morsel.set("key", "value", "qqqq")
    data = pickle.dumps(morsel).replace(b"qqqq", b"qqq\n")  # the same length
    assert _refused(cookies, pickle.loads, data) == (
        "%s 'key' 'value' 'qqq\\n'" % MESSAGE)


@pytest.mark.skipif(not PY2, reason="2.7's Morsel")
def test_27_dict_methods_store_unchecked_but_nothing_is_written(cookies):
    """2.7: no update/setdefault/__setstate__ of Morsel's own (dict's store unchecked;
    upstream fixed no 2.7), and a comment is written raw: BaseCookie refuses the line."""
    for fill in (lambda m: m.update({"path": "/\r\nX: 1"}),
                 lambda m: m.setdefault("expires", None) or dict.__delitem__(m, "expires")
                 or m.setdefault("expires", "x\n"),
                 lambda m: m.__setitem__("comment", "x") or dict.update(m, comment="\x0e")):
        cookie = cookies.SimpleCookie()
        cookie["a"] = "b"
        fill(cookie["a"])
        assert _refused(cookies, cookie.output) == MESSAGE
        assert _refused(cookies, cookie.js_output) == MESSAGE


def test_patch_binds_each_place_and_unpatch_puts_back_the_same_objects(cookies_unpatched):
    module = helpers.stdlib()
    before = dict((cls, dict(vars(getattr(module, cls)))) for cls in OWN)
    report = cookies_unpatched.patch(force=True)
    for cls, names in OWN.items():
        for name in names:
            assert "%s.%s.%s" % (helpers.STDLIB_MODULE, cls, name) in report.changed
            assert vars(getattr(module, cls))[name] is not before[cls][name]
    fixes = cookies_unpatched.status()["fixes"]
    assert fixes["CVE-2026-0672"]["state"] == fixes["CVE-2026-3644"]["state"] == "patched"
    assert module.BaseCookie.__dict__["__str__"] is module.BaseCookie.__dict__["output"]
    cookies_unpatched.unpatch()
    for cls, names in OWN.items():
        for name in names:
            assert vars(getattr(module, cls))[name] is before[cls][name]
    # 3.9+: the class had no __ior__ of its own; dict's is what it resolves to again.
    assert getattr(module.Morsel, "__ior__", None) is getattr(dict, "__ior__", None)


def test_replacements_keep_the_originals_names(cookies_unpatched):
    module = helpers.stdlib()
    originals = dict(((cls, name), vars(getattr(module, cls))[name])
                     for cls, names in OWN.items() for name in names)
    cookies_unpatched.patch(force=True)
    for (cls, name), original in originals.items():
        new = vars(getattr(module, cls))[name]
        assert new.__name__ == original.__name__ and new.__doc__ == original.__doc__
