# -*- coding: utf-8 -*-
"""CPython 3.13's parse_qs/parse_qsl tests, re-expressed against the backport.

Every test here mirrors one test of CPython 3.13.0's ``Lib/test/test_urlparse.py``
(named in its docstring) and runs on every Python 3 interpreter, because the
backport must behave like 3.13 everywhere. The input/expected tables are the
upstream facts; the test code is ours. On 3.13 itself the same tables are also
run against the host's ``urllib.parse``, which proves the tables are right.
"""

import sys
import warnings

import pytest

import urllib_parse_backport

pytestmark = pytest.mark.skipif(sys.version_info[0] < 3, reason="Python 3 semantics")

IMPLEMENTATIONS = [pytest.param(urllib_parse_backport, id="backport")]
if sys.version_info[:2] == (3, 13):
    import urllib.parse

    IMPLEMENTATIONS.append(pytest.param(urllib.parse, id="stdlib-3.13"))


@pytest.fixture(params=IMPLEMENTATIONS)
def impl(request):
    return request.param


# Rows of upstream's ``parse_qsl_test_cases`` (3.13.0). The rows with ';' are
# the ones bpo-42967 changed: ';' is data, not a separator.
PARSE_QSL_CASES = [
    ("", []),
    ("&", []),
    ("&&", []),
    ("=", [("", "")]),
    ("=a", [("", "a")]),
    ("a", [("a", "")]),
    ("a=", [("a", "")]),
    ("a=b=c", [("a", "b=c")]),
    ("a%3Db=c", [("a=b", "c")]),
    ("a=b&c=d", [("a", "b"), ("c", "d")]),
    ("a=b%26c=d", [("a", "b&c=d")]),
    ("&a=b", [("a", "b")]),
    ("a=a+b&b=b+c", [("a", "a b"), ("b", "b c")]),
    ("a=1&a=2", [("a", "1"), ("a", "2")]),
    (b"", []),
    (b"&", []),
    (b"&&", []),
    (b"=", [(b"", b"")]),
    (b"=a", [(b"", b"a")]),
    (b"a", [(b"a", b"")]),
    (b"a=", [(b"a", b"")]),
    (b"a=b=c", [(b"a", b"b=c")]),
    (b"a%3Db=c", [(b"a=b", b"c")]),
    (b"a=b&c=d", [(b"a", b"b"), (b"c", b"d")]),
    (b"a=b%26c=d", [(b"a", b"b&c=d")]),
    (b"&a=b", [(b"a", b"b")]),
    (b"a=a+b&b=b+c", [(b"a", b"a b"), (b"b", b"b c")]),
    (b"a=1&a=2", [(b"a", b"1"), (b"a", b"2")]),
    (";a=b", [(";a", "b")]),
    ("a=a+b;b=b+c", [("a", "a b;b=b c")]),
    (b";a=b", [(b";a", b"b")]),
    (b"a=a+b;b=b+c", [(b"a", b"a b;b=b c")]),
    (u"\u0141=\xe9", [(u"\u0141", u"\xe9")]),
    ("%C5%81=%C3%A9", [(u"\u0141", u"\xe9")]),
    ("%81=%A9", [(u"\ufffd", u"\ufffd")]),
    (b"\xc5\x81=\xc3\xa9", [(b"\xc5\x81", b"\xc3\xa9")]),
    (b"%C5%81=%C3%A9", [(b"\xc5\x81", b"\xc3\xa9")]),
    (b"\x81=\xa9", [(b"\x81", b"\xa9")]),
    (b"%81=%A9", [(b"\x81", b"\xa9")]),
]

# Rows of upstream's ``parse_qs_test_cases`` (3.13.0).
PARSE_QS_CASES = [
    ("", {}),
    ("&", {}),
    ("&&", {}),
    ("=", {"": [""]}),
    ("=a", {"": ["a"]}),
    ("a", {"a": [""]}),
    ("a=", {"a": [""]}),
    ("a=b=c", {"a": ["b=c"]}),
    ("a%3Db=c", {"a=b": ["c"]}),
    ("a=b&c=d", {"a": ["b"], "c": ["d"]}),
    ("a=b%26c=d", {"a": ["b&c=d"]}),
    ("&a=b", {"a": ["b"]}),
    ("a=a+b&b=b+c", {"a": ["a b"], "b": ["b c"]}),
    ("a=1&a=2", {"a": ["1", "2"]}),
    (b"", {}),
    (b"&", {}),
    (b"&&", {}),
    (b"=", {b"": [b""]}),
    (b"=a", {b"": [b"a"]}),
    (b"a", {b"a": [b""]}),
    (b"a=", {b"a": [b""]}),
    (b"a=b=c", {b"a": [b"b=c"]}),
    (b"a%3Db=c", {b"a=b": [b"c"]}),
    (b"a=b&c=d", {b"a": [b"b"], b"c": [b"d"]}),
    (b"a=b%26c=d", {b"a": [b"b&c=d"]}),
    (b"&a=b", {b"a": [b"b"]}),
    (b"a=a+b&b=b+c", {b"a": [b"a b"], b"b": [b"b c"]}),
    (b"a=1&a=2", {b"a": [b"1", b"2"]}),
    (";a=b", {";a": ["b"]}),
    ("a=a+b;b=b+c", {"a": ["a b;b=b c"]}),
    (b";a=b", {b";a": [b"b"]}),
    (b"a=a+b;b=b+c", {b"a": [b"a b;b=b c"]}),
    (b"a=a%E2%80%99b", {b"a": [b"a\xe2\x80\x99b"]}),
    (u"\u0141=\xe9", {u"\u0141": [u"\xe9"]}),
    ("%C5%81=%C3%A9", {u"\u0141": [u"\xe9"]}),
    ("%81=%A9", {u"\ufffd": [u"\ufffd"]}),
    (b"\xc5\x81=\xc3\xa9", {b"\xc5\x81": [b"\xc3\xa9"]}),
    (b"%C5%81=%C3%A9", {b"\xc5\x81": [b"\xc3\xa9"]}),
    (b"\x81=\xa9", {b"\x81": [b"\xa9"]}),
    (b"%81=%A9", {b"\x81": [b"\xa9"]}),
]

# The rows bpo-42967 deleted from both tables (they asserted that ';'
# separates fields), with what 3.13 returns for them instead, keep_blank_values
# being True. Upstream dropped them; we keep them so the old behaviour can
# never come back unnoticed.
BPO_42967_REMOVED_ROWS = [
    (";", [(";", "")]),
    (";;", [(";;", "")]),
    (";a=b", [(";a", "b")]),
    ("a=a+b;b=b+c", [("a", "a b;b=b c")]),
    ("a=1;a=2", [("a", "1;a=2")]),
    (b";", [(b";", b"")]),
    (b";;", [(b";;", b"")]),
    (b";a=b", [(b";a", b"b")]),
    (b"a=a+b;b=b+c", [(b"a", b"a b;b=b c")]),
    (b"a=1;a=2", [(b"a", b"1;a=2")]),
]


def _assert_same(result, expect):
    """Equal, and every name and value has the expected type (str vs bytes)."""
    assert result == expect
    if isinstance(expect, dict):
        pairs = [(name, value) for name in expect for value in expect[name]]
        got = [(name, value) for name in result for value in result[name]]
    else:
        pairs, got = expect, result
    assert [tuple(map(type, pair)) for pair in got] == [tuple(map(type, p)) for p in pairs]


@pytest.mark.parametrize("orig, expect", PARSE_QSL_CASES)
def test_qsl(impl, orig, expect):
    """Mirrors test_urlparse.UrlParseTestCase.test_qsl (both keep_blank_values modes)."""
    _assert_same(impl.parse_qsl(orig, keep_blank_values=True), expect)
    without_blanks = [pair for pair in expect if len(pair[1])]
    _assert_same(impl.parse_qsl(orig, keep_blank_values=False), without_blanks)


@pytest.mark.parametrize("orig, expect", PARSE_QS_CASES)
def test_qs(impl, orig, expect):
    """Mirrors test_urlparse.UrlParseTestCase.test_qs (both keep_blank_values modes)."""
    _assert_same(impl.parse_qs(orig, keep_blank_values=True), expect)
    without_blanks = dict((k, v) for k, v in expect.items() if len(v[0]))
    _assert_same(impl.parse_qs(orig, keep_blank_values=False), without_blanks)


@pytest.mark.parametrize("orig, expect", BPO_42967_REMOVED_ROWS)
def test_bpo_42967_removed_rows_treat_semicolon_as_data(impl, orig, expect):
    """The ';'-as-separator rows bpo-42967 removed from test_qsl/test_qs, inverted."""
    _assert_same(impl.parse_qsl(orig, keep_blank_values=True), expect)
    expect_dict = {}
    for name, value in expect:
        expect_dict.setdefault(name, []).append(value)
    _assert_same(impl.parse_qs(orig, keep_blank_values=True), expect_dict)


ENCODING_CASES = [
    # (query, keyword arguments, expected value of 'key')
    (u"key=\u0141%E9", {"encoding": "latin-1"}, u"\u0141\xe9"),
    (u"key=\u0141%C3%A9", {"encoding": "utf-8"}, u"\u0141\xe9"),
    (u"key=\u0141%C3%A9", {"encoding": "ascii"}, u"\u0141\ufffd\ufffd"),
    (u"key=\u0141%E9-", {"encoding": "ascii"}, u"\u0141\ufffd-"),
    (u"key=\u0141%E9-", {"encoding": "ascii", "errors": "ignore"}, u"\u0141-"),
]


@pytest.mark.parametrize("query, kwargs, value", ENCODING_CASES)
def test_parse_qs_encoding(impl, query, kwargs, value):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qs_encoding."""
    assert impl.parse_qs(query, **kwargs) == {"key": [value]}


@pytest.mark.parametrize("query, kwargs, value", ENCODING_CASES)
def test_parse_qsl_encoding(impl, query, kwargs, value):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_encoding."""
    assert impl.parse_qsl(query, **kwargs) == [("key", value)]


@pytest.mark.parametrize("function", ["parse_qsl", "parse_qs"])
def test_parse_qsl_max_num_fields(impl, function):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_max_num_fields.

    (3.6-3.12 call parse_qs there, 3.13 parse_qsl: both are checked.) The
    assertion bpo-42967 removed (11 ';'-joined fields refused) is inverted:
    ';' is not counted any more.
    """
    parse = getattr(impl, function)
    with pytest.raises(ValueError) as excinfo:
        parse("&".join(["a=a"] * 11), max_num_fields=10)
    assert str(excinfo.value) == "Max number of fields exceeded"
    ten = parse("&".join(["a=a"] * 10), max_num_fields=10)
    assert ten == ({"a": ["a"] * 10} if function == "parse_qs" else [("a", "a")] * 10)
    eleven_semicolons = parse(";".join(["a=a"] * 11), max_num_fields=10)
    assert len(eleven_semicolons) == 1


SEMICOLON_SEPARATOR_QS_CASES = [
    (";", {}),
    (";;", {}),
    (";a=b", {"a": ["b"]}),
    ("a=a+b;b=b+c", {"a": ["a b"], "b": ["b c"]}),
    ("a=1;a=2", {"a": ["1", "2"]}),
    (b";", {}),
    (b";;", {}),
    (b";a=b", {b"a": [b"b"]}),
    (b"a=a+b;b=b+c", {b"a": [b"a b"], b"b": [b"b c"]}),
    (b"a=1;a=2", {b"a": [b"1", b"2"]}),
]

SEMICOLON_SEPARATOR_QSL_CASES = [
    (";", []),
    (";;", []),
    (";a=b", [("a", "b")]),
    ("a=a+b;b=b+c", [("a", "a b"), ("b", "b c")]),
    ("a=1;a=2", [("a", "1"), ("a", "2")]),
    (b";", []),
    (b";;", []),
    (b";a=b", [(b"a", b"b")]),
    (b"a=a+b;b=b+c", [(b"a", b"a b"), (b"b", b"b c")]),
    (b"a=1;a=2", [(b"a", b"1"), (b"a", b"2")]),
]


@pytest.mark.parametrize("separator", [";", b";"], ids=["str-sep", "bytes-sep"])
@pytest.mark.parametrize("orig, expect", SEMICOLON_SEPARATOR_QS_CASES)
def test_parse_qs_separator(impl, orig, expect, separator):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qs_separator (bpo-42967, GH-24818)."""
    _assert_same(impl.parse_qs(orig, separator=separator), expect)


@pytest.mark.parametrize("separator", [";", b";"], ids=["str-sep", "bytes-sep"])
@pytest.mark.parametrize("orig, expect", SEMICOLON_SEPARATOR_QSL_CASES)
def test_parse_qsl_separator(impl, orig, expect, separator):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_separator (bpo-42967, GH-24818)."""
    _assert_same(impl.parse_qsl(orig, separator=separator), expect)


@pytest.mark.parametrize("make", [bytes, bytearray, memoryview])
def test_parse_qsl_bytes(impl, make):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_bytes (gh-74668)."""
    result = impl.parse_qsl(make(b"a=b"))
    assert result == [(b"a", b"b")]
    assert [tuple(map(type, pair)) for pair in result] == [(bytes, bytes)]


FALSE_VALUES = ["", b"", None, 0, 0.0, [], {}, memoryview(b"")]


@pytest.mark.parametrize("value", FALSE_VALUES, ids=repr)
def test_parse_qsl_false_value(impl, value):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_false_value.

    3.13 returns [] silently (the DeprecationWarning is 3.14's, gh-116897).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert impl.parse_qsl(value, keep_blank_values=True, strict_parsing=True) == []
    assert [w for w in caught if issubclass(w.category, DeprecationWarning)] == []
    with pytest.raises(ValueError) as excinfo:
        impl.parse_qsl(value, separator=1)
    assert str(excinfo.value) == "Separator must be of type string or bytes."


@pytest.mark.parametrize("value", [list(b"a=b"), iter(b"a=b"), 1, object()],
                         ids=["list", "iterator", "int", "object"])
def test_parse_qsl_errors_bad_query_type(impl, value):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_errors (the TypeError part)."""
    with pytest.raises(TypeError):
        impl.parse_qsl(value)


@pytest.mark.parametrize("separator", ["", b"", None, 0, 1, 0.0, 1.5], ids=repr)
def test_parse_qsl_errors_bad_separator(impl, separator):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_errors (the separator part)."""
    with pytest.raises(ValueError) as excinfo:
        impl.parse_qsl("a=b", separator=separator)
    assert str(excinfo.value) == "Separator must be of type string or bytes."


def test_parse_qsl_errors_separator_conversion(impl):
    """Mirrors test_urlparse.UrlParseTestCase.test_parse_qsl_errors (the ASCII conversions)."""
    with pytest.raises(UnicodeEncodeError):
        impl.parse_qsl(b"a=b", separator=u"\xa6")
    with pytest.raises(UnicodeDecodeError):
        impl.parse_qsl("a=b", separator=b"\xa6")
