# -*- coding: utf-8 -*-
"""The upstream parse_qs/parse_qsl tests, under Python 2.7 semantics.

2.7.18's ``Lib/test/test_urlparse.py`` has ``test_qsl`` and ``test_qs``; the
other upstream tests (encoding, max_num_fields, separator, bytes, false
values, errors) only exist for 3.x and are re-expressed here with what 2.7.18's
``urlparse`` does, except that only the separator splits fields: the
';'-splitting rows are changed exactly as bpo-42967 changed them for 3.x.

Where a row has no ';' the expectation is plain 2.7.18 behaviour, so those
rows also run against the host's own ``urlparse`` (proving the table).
"""

import sys

import pytest

import urllib_parse_backport

pytestmark = pytest.mark.skipif(sys.version_info[0] != 2, reason="Python 2.7 semantics")

if sys.version_info[0] == 2:
    import urlparse

    STDLIB = urlparse
    text = unicode  # noqa: F821 (Python 2 only)
    native = str
else:  # collected but skipped on Python 3
    STDLIB = None
    text = str
    native = str


def _impls(orig):
    """The backport always; 2.7.18's urlparse too where ';' plays no part."""
    impls = [pytest.param(urllib_parse_backport, id="backport")]
    if STDLIB is not None and ";" not in orig:
        impls.append(pytest.param(STDLIB, id="stdlib-2.7"))
    return impls


def _with_impls(cases):
    """Expand (orig, expect) rows into (impl, orig, expect) parameters."""
    rows = []
    for orig, expect in cases:
        for impl in _impls(orig):
            rows.append(pytest.param(impl.values[0], orig, expect,
                                     id="%s-%r" % (impl.id, orig)))
    return rows


# 2.7.18's parse_qsl_test_cases (its b"" twins are the same str objects on
# 2.7, so they appear once), the ';' rows as bpo-42967 left them, the rows
# bpo-42967 deleted (inverted: ';' is data), 3.13's newer rows that apply to
# 2.7, and unicode twins (unicode in, unicode out, escapes read as latin-1;
# a field without '=' keeps 2.7.18's native '' value).
PARSE_QSL_CASES = [
    ("", []),
    ("&", []),
    ("&&", []),
    ("=", [("", "")]),
    ("=a", [("", "a")]),
    ("a", [("a", "")]),
    ("a=", [("a", "")]),
    ("&a=b", [("a", "b")]),
    ("a=a+b&b=b+c", [("a", "a b"), ("b", "b c")]),
    ("a=1&a=2", [("a", "1"), ("a", "2")]),
    # bpo-42967: changed rows.
    (";a=b", [(";a", "b")]),
    ("a=a+b;b=b+c", [("a", "a b;b=b c")]),
    # bpo-42967: deleted rows, inverted.
    (";", [(";", "")]),
    (";;", [(";;", "")]),
    ("a=1;a=2", [("a", "1;a=2")]),
    # Rows 3.13 added that mean the same on 2.7.
    ("a=b=c", [("a", "b=c")]),
    ("a%3Db=c", [("a=b", "c")]),
    ("a=b&c=d", [("a", "b"), ("c", "d")]),
    ("a=b%26c=d", [("a", "b&c=d")]),
    ("%C5%81=%C3%A9", [("\xc5\x81", "\xc3\xa9")]),
    ("%81=%A9", [("\x81", "\xa9")]),
    ("\xc5\x81=\xc3\xa9", [("\xc5\x81", "\xc3\xa9")]),
    # unicode twins.
    (u"", []),
    (u"&", []),
    (u"=", [(u"", u"")]),
    (u"a", [(u"a", "")]),
    (u"a=", [(u"a", u"")]),
    (u"a=a+b&b=b+c", [(u"a", u"a b"), (u"b", u"b c")]),
    (u";a=b", [(u";a", u"b")]),
    (u"a=a+b;b=b+c", [(u"a", u"a b;b=b c")]),
    (u";", [(u";", "")]),
    (u"a=1;a=2", [(u"a", u"1;a=2")]),
    (u"\u0141=\xe9", [(u"\u0141", u"\xe9")]),
    (u"%C5%81=%C3%A9", [(u"\xc5\x81", u"\xc3\xa9")]),
    (u"\u0141=%E9", [(u"\u0141", u"\xe9")]),
]


def _types(pairs):
    return [tuple(type(item).__name__ for item in pair) for pair in pairs]


def _as_dict(pairs):
    result = {}
    for name, value in pairs:
        result.setdefault(name, []).append(value)
    return result


@pytest.mark.parametrize("impl, orig, expect", _with_impls(PARSE_QSL_CASES))
def test_qsl(impl, orig, expect):
    """Mirrors 2.7.18's test_urlparse.UrlParseTestCase.test_qsl (both keep_blank_values modes)."""
    result = impl.parse_qsl(orig, keep_blank_values=True)
    assert result == expect
    assert _types(result) == _types(expect)
    without_blanks = [pair for pair in expect if len(pair[1])]
    result = impl.parse_qsl(orig, keep_blank_values=False)
    assert result == without_blanks
    assert _types(result) == _types(without_blanks)


@pytest.mark.parametrize("impl, orig, expect", _with_impls(PARSE_QSL_CASES))
def test_qs(impl, orig, expect):
    """Mirrors 2.7.18's test_urlparse.UrlParseTestCase.test_qs (both keep_blank_values modes)."""
    expect = _as_dict(expect)
    assert impl.parse_qs(orig, keep_blank_values=True) == expect
    without_blanks = dict((k, v) for k, v in expect.items() if len(v[0]))
    assert impl.parse_qs(orig, keep_blank_values=False) == without_blanks


def test_attack_differs_from_unpatched_stdlib():
    """The bpo-42967 changed rows really differ from 2.7.18 (so the table proves the fix)."""
    assert STDLIB.parse_qsl("a=a+b;b=b+c") == [("a", "a b"), ("b", "b c")]
    assert urllib_parse_backport.parse_qsl("a=a+b;b=b+c") == [("a", "a b;b=b c")]


@pytest.mark.parametrize("impl, query, expect", [
    pytest.param(urllib_parse_backport, "key=%C5%81%E9", "\xc5\x81\xe9", id="backport-str"),
    pytest.param(STDLIB, "key=%C5%81%E9", "\xc5\x81\xe9", id="stdlib-str"),
    pytest.param(urllib_parse_backport, u"key=\u0141%E9", u"\u0141\xe9", id="backport-unicode"),
    pytest.param(STDLIB, u"key=\u0141%E9", u"\u0141\xe9", id="stdlib-unicode"),
])
def test_parse_qs_encoding(impl, query, expect):
    """test_parse_qs(l)_encoding under 2.7 semantics: no encoding argument exists;
    str escapes are bytes, unicode escapes are read as latin-1."""
    assert impl.parse_qs(query) == {"key": [expect]}
    assert type(impl.parse_qs(query)["key"][0]) is type(expect)
    assert impl.parse_qsl(query) == [("key", expect)]
    with pytest.raises(TypeError):
        impl.parse_qsl(query, encoding="latin-1")


@pytest.mark.parametrize("function", ["parse_qsl", "parse_qs"])
def test_parse_qsl_max_num_fields(function):
    """Mirrors test_parse_qsl_max_num_fields (2.7.16+ has max_num_fields, bpo-34866).

    The assertion bpo-42967 removed (11 ';'-joined fields refused) is inverted.
    max_num_fields is also accepted as the 4th positional argument (2.7's cgi).
    """
    parse = getattr(urllib_parse_backport, function)
    with pytest.raises(ValueError) as excinfo:
        parse("&".join(["a=a"] * 11), max_num_fields=10)
    assert str(excinfo.value) == "Max number of fields exceeded"
    with pytest.raises(ValueError):
        parse("&".join(["a=a"] * 11), 0, 0, 10)
    ten = parse("&".join(["a=a"] * 10), 0, 0, 10)
    assert ten == ({"a": ["a"] * 10} if function == "parse_qs" else [("a", "a")] * 10)
    assert len(parse(";".join(["a=a"] * 11), max_num_fields=10)) == 1
    # The unpatched stdlib counts ';' too: the difference is the fix.
    with pytest.raises(ValueError):
        getattr(STDLIB, function)(";".join(["a=a"] * 11), max_num_fields=10)


SEMICOLON_SEPARATOR_QSL_CASES = [
    (";", []),
    (";;", []),
    (";a=b", [("a", "b")]),
    ("a=a+b;b=b+c", [("a", "a b"), ("b", "b c")]),
    ("a=1;a=2", [("a", "1"), ("a", "2")]),
    (u";", []),
    (u";a=b", [(u"a", u"b")]),
    (u"a=a+b;b=b+c", [(u"a", u"a b"), (u"b", u"b c")]),
]


@pytest.mark.parametrize("separator", [";", u";"], ids=["str-sep", "unicode-sep"])
@pytest.mark.parametrize("orig, expect", SEMICOLON_SEPARATOR_QSL_CASES)
def test_parse_qsl_separator(orig, expect, separator):
    """Mirrors test_parse_qsl_separator (bpo-42967); the separator is converted
    to the query's type (str or unicode) via ASCII."""
    result = urllib_parse_backport.parse_qsl(orig, separator=separator)
    assert result == expect
    assert _types(result) == _types(expect)


@pytest.mark.parametrize("separator", [";", u";"], ids=["str-sep", "unicode-sep"])
@pytest.mark.parametrize("orig, expect", SEMICOLON_SEPARATOR_QSL_CASES)
def test_parse_qs_separator(orig, expect, separator):
    """Mirrors test_parse_qs_separator (bpo-42967)."""
    assert urllib_parse_backport.parse_qs(orig, separator=separator) == _as_dict(expect)


def test_separator_is_the_fifth_positional_argument():
    """2.7 has no encoding/errors, so separator follows max_num_fields."""
    assert urllib_parse_backport.parse_qsl("a=1;b=2", 0, 0, None, ";") == [("a", "1"), ("b", "2")]


@pytest.mark.parametrize("impl", [
    pytest.param(urllib_parse_backport, id="backport"),
    pytest.param(STDLIB, id="stdlib-2.7"),
])
def test_parse_qsl_bytes(impl):
    """test_parse_qsl_bytes under 2.7 semantics: str is bytes; a bytearray
    gives bytearray pieces, as 2.7.18 does."""
    assert impl.parse_qsl(b"a=b") == [("a", "b")]
    result = impl.parse_qsl(bytearray(b"a=b+c"))
    assert result == [(bytearray(b"a"), bytearray(b"b c"))]
    assert _types(result) == [("bytearray", "bytearray")]


@pytest.mark.parametrize("impl", [
    pytest.param(urllib_parse_backport, id="backport"),
    pytest.param(STDLIB, id="stdlib-2.7"),
])
def test_parse_qsl_false_value_strings(impl):
    """test_parse_qsl_false_value under 2.7 semantics: empty strings give [],
    and unlike 3.11+ an empty query is a bad field when strict (2.7.18)."""
    for value in ("", u""):
        assert impl.parse_qsl(value, keep_blank_values=True) == []
        with pytest.raises(ValueError) as excinfo:
            impl.parse_qsl(value, strict_parsing=True)
        assert str(excinfo.value) == "bad query field: %r" % (value,)


@pytest.mark.parametrize("value", [[], None, 0], ids=repr)
def test_parse_qsl_false_value_non_strings(value):
    """test_parse_qsl_false_value under 2.7 semantics: 2.7.18 has no
    coercion, so non-string false values fail at ``qs.split``."""
    with pytest.raises(AttributeError):
        STDLIB.parse_qsl(value)
    with pytest.raises(AttributeError):
        urllib_parse_backport.parse_qsl(value)


@pytest.mark.parametrize("separator", ["", u"", None, 0, 1, 0.0, 1.5, [";"]], ids=repr)
def test_parse_qsl_errors_bad_separator(separator):
    """Mirrors test_parse_qsl_errors (the separator part)."""
    with pytest.raises(ValueError) as excinfo:
        urllib_parse_backport.parse_qsl("a=b", separator=separator)
    assert str(excinfo.value) == "Separator must be of type string or bytes."


def test_parse_qsl_errors_separator_conversion():
    """Mirrors test_parse_qsl_errors (the ASCII conversions between str and unicode)."""
    with pytest.raises(UnicodeEncodeError):
        urllib_parse_backport.parse_qsl("a=b", separator=u"\xa6")
    with pytest.raises(UnicodeDecodeError):
        urllib_parse_backport.parse_qsl(u"a=b", separator="\xa6")


def test_parse_qsl_errors_strict_message():
    """2.7.18's strict error message is ``bad query field: %r`` of the field."""
    for query, field in (("a=1&b", "b"), (u"b", u"b"), ("a=1&", "")):
        with pytest.raises(ValueError) as excinfo:
            urllib_parse_backport.parse_qsl(query, strict_parsing=True)
        assert str(excinfo.value) == "bad query field: %r" % (field,)
