"""Honest cookies through the Morsel fixes: exactly what the stock classes give.

Generated keys (legal characters), values and attributes without a C0
control character or DEL (3.x: any other character, non-ASCII and other
unprintable ones included, which take the checks' slow path; 2.7: any other
byte) are written by the stock classes, then by the patched ones in the same
process; ``output()``, ``js_output()``, ``str()``, ``repr()``, the cookie
loaded back and a pickle round trip must be identical.
"""

import pickle
import string
import sys

from hypothesis import given, settings, strategies as st

import cookie_helpers as helpers
from budget import examples

PY2 = sys.version_info[0] == 2
LEGAL = string.ascii_letters + string.digits + "!#$%&'*+-.^_`|~" + ("" if PY2 else ":")
ATTRIBUTES = ["path", "domain", "comment", "version", "max-age", "expires", "secure",
              "httponly"]

if PY2:
    _HONEST = st.characters(min_codepoint=0x20, max_codepoint=0xff,
                            blacklist_characters=u"\x7f").map(
        lambda char: char.encode("latin-1"))
    TEXT = st.lists(_HONEST, max_size=30).map("".join)
else:
    TEXT = st.text(st.characters(blacklist_categories=("Cs",),
                                 blacklist_characters="".join(map(chr, range(32))) + "\x7f"),
                   max_size=30)
KEY = st.text(st.sampled_from(LEGAL), min_size=1, max_size=12).map(str).filter(
    lambda key: key.lower() not in ATTRIBUTES + ["samesite", "partitioned"])
ATTRIBUTE_VALUE = st.one_of(TEXT, st.integers(0, 10 ** 9), st.booleans())
COOKIE = st.tuples(KEY, TEXT, st.dictionaries(st.sampled_from(ATTRIBUTES), ATTRIBUTE_VALUE,
                                              max_size=4))


def _write(module, cookies, separator):
    """Everything a cookie jar of *cookies* writes, as the module's classes do now."""
    jar = module.SimpleCookie()
    for key, value, attributes in cookies:
        jar[key] = value
        for name, attribute in sorted(attributes.items()):
            if name != "expires" or not isinstance(attribute, int):  # no clock in the text
                jar[key][name] = attribute
    texts = [jar.output(), jar.output(sep=separator), jar.output(["path"], "Cookie:"),
             jar.js_output(), str(jar), repr(jar)]
    texts += [morsel.OutputString() for _, morsel in sorted(jar.items())]
    texts.append(pickle.loads(pickle.dumps(jar)).output())
    again = module.SimpleCookie()
    try:
        again.load(jar.output(header="", sep=";"))
        texts.append(again.output())
    except module.CookieError as error:  # a value the parser refuses, both ways alike
        texts.append(("refused", str(error)))
    return texts


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(COOKIE, min_size=1, max_size=4, unique_by=lambda cookie: cookie[0]),
       st.sampled_from(["\r\n", "\n", "; ", ""]))
def test_honest_cookies_are_written_as_the_stock_classes_write_them(cookies, separator):
    import http_cookies_backport
    module = helpers.stdlib()
    http_cookies_backport.unpatch()
    stock = _write(module, cookies, separator)
    http_cookies_backport.patch(force=True)
    try:
        patched = _write(module, cookies, separator)
    finally:
        http_cookies_backport.unpatch()
    assert patched == stock


@settings(max_examples=examples(60), deadline=None)
@given(st.dictionaries(st.sampled_from(ATTRIBUTES), TEXT, min_size=1))
def test_honest_attribute_updates_are_stored_as_stock(attributes):
    import http_cookies_backport
    module = helpers.stdlib()
    results = []
    for patched in (False, True):
        if patched:
            http_cookies_backport.patch(force=True)
        try:
            morsel = module.Morsel()
            morsel.set("k", "v", "v")
            for name, value in attributes.items():
                morsel.setdefault(name.upper(), value)
            if not PY2:
                morsel.update(attributes)
            if hasattr(dict, "__ior__"):
                morsel |= dict((name.title(), value) for name, value in attributes.items())
            results.append((sorted(morsel.items()), morsel.output(), morsel.js_output()))
        finally:
            http_cookies_backport.unpatch()
    assert results[0] == results[1]


def test_the_issue_s_honest_cookie_is_written_byte_for_byte(cookies_unpatched):
    """``b c;d`` (quoted: a space and a semicolon) with a path and a max-age, and a
    second cookie with the flags, by output(), js_output() and str(), as stock."""
    cookies = [("sid", "b c;d", {"path": "/", "max-age": 3600}),
               ("theme", "dark", {"secure": True, "httponly": True, "domain": "example.com"})]
    module = helpers.stdlib()
    stock = _write(module, cookies, "\r\n")
    assert stock[0] == ('Set-Cookie: sid="b c\\073d"; Max-Age=3600; Path=/\r\n'
                        'Set-Cookie: theme=dark; Domain=example.com; %s; %s'
                        % (("httponly", "secure") if PY2 else ("HttpOnly", "Secure")))
    cookies_unpatched.patch(force=True)
    assert _write(module, cookies, "\r\n") == stock
