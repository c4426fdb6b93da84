# -*- coding: utf-8 -*-
"""The backport's ``urlsplit`` against a fully fixed one, and against the interpreter's own.

* Against the reference (Debian 12's ``python3.11``, which carries all four
  fixes): the checked-in ``urlsplit_reference.json`` (see
  ``gen_urlsplit_data.py``), and batches of hypothesis-generated URLs
  sent to the reference in one subprocess per batch.
* Against the interpreter's own ``urlsplit``/``urlparse``: for URLs none of
  the fixes concerns (no C0 control or space in front, no tab/CR/LF, no
  bracket), the results are equal, with equal types.
"""

import io
import json
import os
import sys

import pytest
from hypothesis import given, settings, strategies as st

from urllib_parse_backport import urlparse, urlsplit

import urlsplit_cases
from test_urlsplit_upstream import needs_reference, run_reference
from budget import examples

HERE = os.path.dirname(os.path.abspath(__file__))

PY2 = sys.version_info[0] == 2
if PY2:  # pragma: no cover - exercised by the py27 environment
    import urlparse as own
else:
    import urllib.parse as own

DATA = os.path.join(HERE, "urlsplit_reference.json")


def _same(expected, got):
    """Outcomes compare equal. On 2.7 errors compare by type: messages quote
    ``u'...'`` there, and 2.7's own NFKC check (bpo-36216) words its message
    with ``%r`` (``test_urlsplit_upstream`` checks the fixes' messages)."""
    if PY2 and expected[0] == got[0] == "error":
        return expected[:2] == got[:2]
    return expected == got


def _check_rows(rows, urlsplit=urlsplit):
    for row in rows:
        url = row["url"]
        assert _same(row["str"], urlsplit_cases.outcome(urlsplit, url)), url
        assert _same(row["scheme"], urlsplit_cases.outcome(urlsplit, url, " \tftp\n")), url
        if "bytes" in row and not PY2:
            assert _same(row["bytes"], urlsplit_cases.outcome(urlsplit, url.encode("ascii"))), url


def test_the_checked_in_reference_data():
    with io.open(DATA, encoding="ascii") as handle:
        document = json.load(handle)
    assert "Debian 12" in document["reference"]
    assert len(document["rows"]) > 600
    _check_rows(document["rows"])


_PIECE = st.sampled_from(["a", "b.c", "user@", "@", ":", ":8080", "[", "]", "[::1]", "[v7.x]",
                          "[1.2.3.4]", "::", "%", "/", "?", "#", ";", " ", "\t", "\r", "\n",
                          "\x00", "\x1f", "\x0b", "v", "fe80::1%x", "0", u"\xe9"])
_URL = st.builds(
    # A URL without scheme or '//' starts with a letter, so no scheme starts
    # with a digit (gh-99418, missing from PyPy 3.9 and 3.6-3.10).
    lambda lead, scheme, slashes, pieces: (lead + (scheme or ("" if slashes else "x")) + slashes
                                           + "".join(pieces) + "x"),
    st.sampled_from(["", "", " ", "\x00", "\t\n ", "\x1f"]),
    st.sampled_from(["", "http:", "https:", "svn+ssh:", "z:"]),
    st.sampled_from(["", "//"]),
    st.lists(_PIECE, max_size=8))


@needs_reference
@settings(max_examples=8, deadline=None)
@given(st.lists(_URL, min_size=50, max_size=200))
def test_generated_urls_split_as_the_reference_splits_them(urls):
    _check_rows(run_reference(urls))


@needs_reference
@settings(max_examples=4, deadline=None)
@given(st.lists(_URL, min_size=50, max_size=200))
def test_generated_urls_split_by_the_patched_stdlib_as_the_reference(urls):
    import urllib_parse_backport
    rows = run_reference(urls)
    urllib_parse_backport.patch(leave_out=["CVE-2021-23336"])
    try:
        _check_rows(rows, own.urlsplit)
    finally:
        urllib_parse_backport.unpatch()


# URLs the fixes do not concern: no leading C0/space, no tab/CR/LF, no bracket.
_PLAIN_PIECE = st.sampled_from(["a", "B.c", "user:pw@", "@", ":", ":80", "::", "%", "/", "//",
                                "?", "#", ";", " ", "=", "&", "\x7f", u"\xe9", "0", "9", "-"])
_PLAIN_URL = st.builds(
    lambda scheme, slashes, pieces: (scheme + slashes + "".join(pieces)).lstrip(
        "".join(chr(code) for code in range(0x21))),
    st.sampled_from(["", "http:", "HTTP:", "https:", "path:", "1a:", "+x:", "mailto:"]),
    st.sampled_from(["", "/", "//"]),
    st.lists(_PLAIN_PIECE, max_size=10))


@settings(max_examples=examples(300), deadline=None)
@given(_PLAIN_URL, st.sampled_from(["", "http", "ftp"]), st.booleans())
def test_unconcerned_urls_split_as_the_interpreters_own(url, scheme, allow_fragments):
    for ours, theirs in ((urlsplit, own.urlsplit), (urlparse, own.urlparse)):
        expected = theirs(url, scheme, allow_fragments)
        got = ours(url, scheme, allow_fragments)
        assert got == expected and type(got) is type(expected)
        if not PY2 and all(ord(c) < 128 for c in url):
            data = url.encode("ascii")
            expected = theirs(data, scheme.encode("ascii"), allow_fragments)
            got = ours(data, scheme.encode("ascii"), allow_fragments)
            assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("args", [
    (None,), ("http://a/", b""), (b"http://a/", "x"), (b"\xff//a",), (1,),
] if not PY2 else [(None,), (1,)])
def test_errors_are_the_interpreters_own(args):
    """Coercion errors (mixing str and bytes, non-ASCII bytes, non-strings)
    come from the interpreter's own code, as in the fixed releases."""
    def result(func):
        try:
            return "ok", func(*args)
        except Exception as exc:
            return type(exc).__name__, str(exc)
    assert result(urlsplit) == result(own.urlsplit)


#: Tests of the interpreters' own test_urlparse that fail against the stdlib
#: as patch() leaves it, and why: none. No test of 2.7.18, 3.6.15, 3.8.18,
#: 3.11.7 or 3.13.0 asserts the old behaviour of any of the four fixes, and
#: the replacement keeps the stdlib's __module__ (test_all lists names by it).
EXPECTED_OWN_FAILURES = set()


@pytest.mark.skipif(bool(os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB")),
                    reason="the -unfixed environments revert parse_qsl in the stdlib, and "
                           "test_urlparse's parse_qsl tests fail there by design")
def test_the_interpreters_own_test_urlparse():
    import subprocess
    try:
        from test import test_urlparse  # noqa: F401
    except ImportError:
        pytest.skip("this interpreter has no test.test_urlparse")
    runner = os.path.join(HERE, "own_test_urlparse.py")
    output = subprocess.check_output([sys.executable, runner], stderr=subprocess.STDOUT)
    failed, fixes = json.loads(output.decode("utf-8").strip().splitlines()[-1])
    assert set(failed) <= EXPECTED_OWN_FAILURES, output.decode("utf-8")
    # Every interpreter of the matrix lacks one fix at least (CVE-2025-0938):
    # the suite ran against a replaced urlsplit.
    assert "applied" in fixes.values()
