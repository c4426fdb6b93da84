"""Property tests (hypothesis) for parse_qs/parse_qsl: invariants of the bpo-42967 fix.

The invariants hold on every interpreter. The stdlib comparisons use the host's
own parser as the oracle only where it agrees with the backport's spec (the
differences between the installed versions' ``parse_qsl`` sources, diffed
version by version, are bytes queries, bad separators and empty queries):
everywhere on 3.13.0 (its stdlib *is* the spec), for non-empty ``str``
queries with ``str`` separators on 3.6-3.12, and on
2.7.18 for queries in which ``';'`` cannot split (none present, or ``'&'``
absent when ``';'`` is the separator).
"""

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stdlib_state import UNFIXED

from urllib_parse_backport import parse_qs, parse_qsl
from budget import examples

PY2 = sys.version_info[0] == 2
if PY2:  # pragma: no cover - exercised by the py27 environment
    import urlparse as stdlib
    from urllib import quote_plus, urlencode
else:
    import urllib.parse as stdlib
    from urllib.parse import quote_plus, urlencode

SETTINGS = settings(max_examples=examples(200), deadline=None)


# Query material: structure, valid and malformed escapes in both hex cases,
# escapes of the structural characters, non-ASCII text.
TOKENS = [u"a", u"b", u"k", u"1", u" ", u"&", u"&", u";", u";", u"=", u"=", u"+", u"%",
          u"%41", u"%3D", u"%26", u"%3B", u"%3b", u"%2B", u"%25", u"%e9", u"%E9", u"%C3%A9",
          u"%c3%a9", u"%ff", u"%zz", u"%4", u"%%", u"\xe9", u"\u2603", u"&&", u";;"]
texts = st.one_of(st.lists(st.sampled_from(TOKENS), max_size=12).map(u"".join), st.text())
# No '%': percent-decoding cannot create a ';', '&' or '=' that was not in the query.
plain_texts = st.text(alphabet=u"ab;=&+ \xe9\u2603", max_size=30)
separators = st.sampled_from([u"&", u";", u"&&", u";&", u"=", u"+", u"%", u"a", u"\xe9"])
flags = st.booleans()
max_fields = st.one_of(st.none(), st.integers(min_value=-2, max_value=8))


def typed(obj):
    """A comparable image of a result that keeps every type (str/bytes/unicode...)."""
    if isinstance(obj, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in obj.items()])
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [typed(x) for x in obj])
    return (type(obj).__name__, obj)


def stdlib_function(name):
    """The host's own parser, never the backport patched into it (see _shim)."""
    func = getattr(stdlib, name)
    assert func.__module__ == stdlib.__name__, "the stdlib is patched: %r" % (func,)
    return func


def outcome(func, *args, **kwargs):
    try:
        result = func(*args, **kwargs)
    except Exception as exc:
        return ("raised", type(exc).__name__, str(exc))
    if PY2 and isinstance(result, dict):  # arbitrary dict order on 2.7
        return ("returned", sorted(typed(result)[1]))
    return ("returned", typed(result))


# Run with the upstream default ('&'), whatever PYTHON_URLLIB_QS_SEPARATOR says.
pytestmark = pytest.mark.usefixtures("upstream_default_separator")


# -- invariants --------------------------------------------------------------

@SETTINGS
@given(plain_texts, flags)
def test_semicolon_never_splits_by_default(text, as_bytes):
    qs = text.encode("utf-8") if as_bytes else text
    semicolon, amp = (b";", b"&") if as_bytes else (u";", u"&")
    pairs = parse_qsl(qs, keep_blank_values=True)
    # One pair per non-empty '&' field, and every ';' survives as data.
    assert len(pairs) == len([field for field in qs.split(amp) if field])
    assert sum(name.count(semicolon) + value.count(semicolon)
               for name, value in pairs) == qs.count(semicolon)
    if amp not in qs:
        assert len(pairs) <= 1
        assert len(parse_qs(qs, keep_blank_values=True)) <= 1


@SETTINGS
@given(texts, separators, flags)
def test_at_most_one_pair_per_separator_plus_one(text, separator, keep_blank_values):
    pairs = parse_qsl(text, keep_blank_values, separator=separator)
    assert len(pairs) <= text.count(separator) + 1
    grouped = parse_qs(text, keep_blank_values, separator=separator)
    assert sum(len(values) for values in grouped.values()) == len(pairs)
    assert set(grouped) == set(name for name, _ in pairs)


@SETTINGS
@given(texts.filter(bool), separators, st.integers(min_value=-2, max_value=8))
def test_max_num_fields_counts_separators_only(text, separator, limit):
    fields = 1 + text.count(separator)
    if limit < fields:
        with pytest.raises(ValueError, match="Max number of fields exceeded"):
            parse_qsl(text, max_num_fields=limit, separator=separator)
    else:
        parse_qsl(text, max_num_fields=limit, separator=separator)
    if u";" not in separator:
        # ';' is not counted: a limit that fits the separators is enough.
        parse_qsl(text + u";;;", max_num_fields=fields, separator=separator)


@SETTINGS
@given(st.lists(st.tuples(st.text(), st.text()), max_size=6))
def test_round_trip_of_text_pairs(pairs):
    if PY2:
        # 2.7: urlencode wants bytes; a unicode query's escapes read as latin-1.
        encoded = [(k.encode("utf-8"), v.encode("utf-8")) for k, v in pairs]
        query = urlencode(encoded)
        assert parse_qsl(query, keep_blank_values=True) == encoded
        latin = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in encoded]
        assert parse_qsl(query.decode("ascii"), keep_blank_values=True) == latin
    else:
        assert parse_qsl(urlencode(pairs), keep_blank_values=True) == pairs
        query = u";".join(quote_plus(k) + u"=" + quote_plus(v) for k, v in pairs)
        assert parse_qsl(query, keep_blank_values=True, separator=u";") == pairs


@SETTINGS
@given(st.lists(st.tuples(st.binary(), st.binary()), max_size=6))
def test_round_trip_of_byte_pairs(pairs):
    query = urlencode(pairs)
    if not PY2:
        query = query.encode("ascii")  # 3.13 semantics: bytes in, raw bytes out
    assert parse_qsl(query, keep_blank_values=True) == pairs
    grouped = parse_qs(query, keep_blank_values=True)
    assert sorted(grouped) == sorted(set(name for name, _ in pairs))


# -- the host stdlib as oracle, where it is the spec or agrees with it --------

any_queries = st.one_of(texts, st.binary(), texts.map(lambda t: t.encode("utf-8")),
                        st.binary().map(bytearray), st.binary().map(memoryview),
                        st.sampled_from([None, 0, [], (), 0.0, 1, [97], True]))
any_separators = st.one_of(separators, separators.map(lambda s: s.encode("utf-8")),
                           st.sampled_from([u"", b"", None, 0, 1, [], bytearray(b"&")]))
encodings = st.sampled_from([u"utf-8", u"latin-1", u"ascii", None])
errors = st.sampled_from([u"strict", u"ignore", u"replace", None])


@pytest.mark.skipif(sys.version_info[:3] != (3, 13, 0),
                    reason="only CPython 3.13.0's stdlib is the spec for every input")
@SETTINGS
@given(any_queries, flags, flags, encodings, errors, max_fields, any_separators,
       st.sampled_from(["parse_qsl", "parse_qs"]))
def test_equals_stdlib_on_3_13_for_everything(qs, keep_blank_values, strict_parsing, encoding,
                                              errors, max_num_fields, separator, name):
    kwargs = dict(keep_blank_values=keep_blank_values, strict_parsing=strict_parsing,
                  encoding=encoding, errors=errors, max_num_fields=max_num_fields,
                  separator=separator)
    assert outcome(globals()[name], qs, **kwargs) == outcome(stdlib_function(name), qs, **kwargs)


@pytest.mark.skipif(PY2 or UNFIXED, reason="comparison with a fixed Python 3 stdlib")
@SETTINGS
@given(texts.filter(bool), flags, flags, encodings, errors, max_fields, separators)
def test_equals_stdlib_for_nonempty_text_queries(qs, keep_blank_values, strict_parsing,
                                                 encoding, errors, max_num_fields, separator):
    # For a non-empty str query and a non-empty str separator every post-fix
    # 3.x agrees: the sources differ only for bytes (3.13's raw-bytes path,
    # gh-74668), bad separators (gh-116764) and empty queries (bpo-45874).
    args = (qs, keep_blank_values, strict_parsing, encoding, errors, max_num_fields, separator)
    assert outcome(parse_qsl, *args) == outcome(stdlib_function("parse_qsl"), *args)
    assert outcome(parse_qs, *args) == outcome(stdlib_function("parse_qs"), *args)


@pytest.mark.skipif(not PY2, reason="2.7.18's urlparse still splits on ';'")
@SETTINGS
@given(texts, flags, flags, flags, max_fields)
def test_equals_urlparse_where_semicolon_cannot_split(text, as_bytes, keep_blank_values,
                                                      strict_parsing, max_num_fields):
    qs = text.encode("utf-8") if as_bytes else text
    semicolon, amp = (b";", b"&") if as_bytes else (u";", u"&")
    args = (keep_blank_values, strict_parsing, max_num_fields)
    no_semicolon = qs.replace(semicolon, semicolon[:0])
    for func in ("parse_qsl", "parse_qs"):
        ours, theirs = globals()[func], stdlib_function(func)
        assert outcome(ours, no_semicolon, *args) == outcome(theirs, no_semicolon, *args)
        # With ';' as the separator and no '&', 2.7.18 splits exactly where we do.
        no_amp = qs.replace(amp, amp[:0])
        assert outcome(ours, no_amp, *args + (semicolon,)) == outcome(theirs, no_amp, *args)
