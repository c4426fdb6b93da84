"""The fix itself: fixed CPython's cookie unquoting, in linear time (CVE-2024-7592, gh-123067).

Mirrors CPython's ``test_http_cookies.CookieTests.test_unquote`` and
``test_unquote_large`` (added by gh-123067), then pins ``unquote`` to the
stock function and to the reference interpreter on generated values, and
shows, without timing anything, that its work grows linearly where the
stock loop's grows quadratically.
"""

import pytest
from hypothesis import given, settings, strategies as st

import cookie_helpers as helpers
from http_cookies_backport import status, unquote
from reference import skip_unless
from budget import examples

#: CPython's test_unquote cases: (cookie, the value SimpleCookie.load gives 'a').
CPYTHON_CASES = [
    (r'a="b=\""', 'b="'),
    (r'a="b=\\"', 'b=\\'),
    (r'a="b=\="', 'b=='),
    (r'a="b=\n"', 'b=n'),
    (r'a="b=\042"', 'b="'),
    (r'a="b=\134"', 'b=\\'),
    (r'a="b=\377"', u'b=\xff'),
    (r'a="b=\400"', 'b=400'),
    (r'a="b=\42"', 'b=42'),
    (r'a="b=\\042"', 'b=\\042'),
    (r'a="b=\\134"', 'b=\\134'),
    (r'a="b=\\\""', 'b=\\"'),
    (r'a="b=\\\042"', 'b=\\"'),
    (r'a="b=\134\""', 'b=\\"'),
    (r'a="b=\134\042"', 'b=\\"'),
]


@pytest.mark.parametrize("encoded, decoded", CPYTHON_CASES)
def test_cpython_unquote_cases_through_simple_cookie(cookies_unpatched, encoded, decoded):
    cookies_unpatched.patch(force=True)
    cookie = helpers.stdlib().SimpleCookie()
    cookie.load(encoded)
    assert helpers.as_text(cookie["a"].value) == decoded  # 2.7: the same bytes, as latin-1


@pytest.mark.parametrize("encoded, decoded", CPYTHON_CASES)
def test_cpython_unquote_cases_directly(encoded, decoded):
    value = helpers.native(encoded.partition("=")[2])
    assert helpers.as_text(unquote(value)) == decoded


@pytest.mark.parametrize("encoded", [r"\\", r"\134"])
def test_cpython_unquote_large(cookies_unpatched, encoded):
    # CPython's test uses 10**6; 10**5 keeps the suite quick and still needs
    # the fix (the stock loop takes minutes).
    cookies_unpatched.patch(force=True)
    n = 10 ** 5
    cookie = helpers.stdlib().SimpleCookie()
    cookie.load('a="b=' + encoded * n + ';"')
    value = cookie["a"].value
    assert (value[:3], value[-2:], len(value)) == ("b=\\", "\\;", n + 3)


def test_values_unquote_passes_through_unchanged():
    for value in ["", "a", '"', 'a"', '"a', "\\101", "plain=value"]:
        assert unquote(value) is value


def test_none_as_on_this_interpreter():
    # 3.x returns None (``str is None or ...``); 2.7's len(None) raises TypeError.
    if helpers.PY2:
        with pytest.raises(TypeError):
            unquote(None)
    else:
        assert unquote(None) is None


def _outcome(function, value):
    try:
        result = function(value)
    except Exception as exc:
        return type(exc)
    return type(result), result


@pytest.mark.parametrize("value", [u'""', u'"\\"', u'"a\\101"', u'"\\377"', u'"\\\xff"'])
def test_text_values_as_the_stock_function(value):
    # On 2.7 a unicode value joins unicode and byte pieces as the stock loop
    # does: u'""' gives '' (bytes), '\\377' raises UnicodeDecodeError.
    assert _outcome(unquote, value) == _outcome(helpers.stdlib()._unquote, value)


#: Values built from what the escapes are made of: quotes, backslashes, octal
#: digits (and 8, which is not one), a newline (``.`` skips it), and Latin-1.
CHARS = u'\\"012345678a;=\n\xff'
VALUES = st.text(alphabet=CHARS, max_size=30).flatmap(
    lambda inner: st.sampled_from([u'"%s"' % inner, inner, u'"' + inner]))


@settings(max_examples=examples(300), deadline=None)
@given(VALUES)
def test_same_as_the_stock_function(text):
    stock = helpers.stdlib()._unquote  # unpatched: the tests restore it after each patch
    value = helpers.native(text)
    try:
        expected = stock(value)
    except UnicodeError as exc:  # only 2.7 with unicode input; native() gives bytes
        pytest.fail("stock raised %r" % exc)
    result = unquote(value)
    assert (type(result), result) == (type(expected), expected)


@pytest.fixture(scope="module")
def reference():
    skip_unless(carrying=["CVE-2024-7592"])  # gh-123067, which Debian backported
    child = helpers.Reference()
    yield child
    child.close()


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(VALUES, min_size=1, max_size=40))
def test_same_as_the_reference_interpreter(reference, texts):
    assert [helpers.as_text(unquote(helpers.native(text))) for text in texts] == \
        reference.unquote(texts)


def _backslashes(n):
    return '"' + "\\\\" * n + '"'


def _octal_at_the_end(n):
    return '"' + "\\\\" * n + '\\042"'


@pytest.mark.parametrize("make", [_backslashes, _octal_at_the_end])
def test_the_work_grows_linearly(make):
    assert helpers.growth(unquote, make) < 8 * 1.5


@pytest.mark.parametrize("make", [_backslashes, _octal_at_the_end])
def test_the_measure_sees_the_quadratic_stock_function(cookies_unpatched, make):
    # Where is_vulnerable(), the stock loop's work grows as the square (64 for
    # 8 times the size); elsewhere the stock function is the fix.
    growth = helpers.growth(helpers.stdlib()._unquote, make)
    assert (growth > 8 * 4) is status()["fixes"]["CVE-2024-7592"]["lacks"]
