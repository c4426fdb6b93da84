"""``urllib_parse_backport.wsgi.protect``: the query half, the separator policy, the cost.

The rewrite itself (``_rewrite.separate``) is checked against the fixed
``parse_qsl``: a parser splitting on ``&`` and ``;`` must find, in the
rewritten query, the fields ``parse_qsl`` finds with the chosen separator.
The body half is in test_wsgi_body.py, generated queries through real
frameworks in test_wsgi_properties.py, a real server in test_wsgi_http.py.
"""

import re
import sys
import warnings

import pytest

from dependencies import importorskip
from fresh_interpreter import ATTACK
from wsgi_apps import policy

from urllib_parse_backport import QuerySeparatorWarning, parse_qsl
from urllib_parse_backport import wsgi
from internals import _rewrite
from urllib_parse_backport.wsgi import ORIGINAL_QUERY_STRING, protect

PY2 = sys.version_info[0] == 2
if PY2:  # pragma: no cover - exercised by the py27 environment
    from urllib import unquote
else:
    from urllib.parse import unquote
SMUGGLED = "q=common_term&utm_content=s%3Bq=malicious_term"


def both_split(text):
    """A parser that splits on ``&`` and ``;`` (2.7.18's), as pairs of raw pieces."""
    return [tuple(piece.split("=", 1)) for piece in re.split("[&;]", text) if piece]


def both_split_decoded(text):
    return [tuple(unquote(part) for part in pair) for pair in both_split(text)]


def raw_pairs(text, separator):
    return [tuple(piece.split("=", 1)) for piece in text.split(separator) if piece]


class Recorder(object):
    """A WSGI app that keeps the environ it was called with."""

    def __init__(self):
        self.environ = None
        self.result = [b"ok"]

    def __call__(self, environ, start_response):
        self.environ = dict(environ)
        return self.result


# -- the rewrite -------------------------------------------------------------------------

@pytest.mark.parametrize("query, separator, expected", [
    (ATTACK, None, SMUGGLED),
    (ATTACK, "&", SMUGGLED),
    (ATTACK, ";", "q=common_term%26utm_content=s&q=malicious_term"),
    (ATTACK, "|", "q=common_term%26utm_content=s%3Bq=malicious_term"),
    ("a=1|b=2&c;d", "|", "a=1&b=2%26c%3Bd"),
    (ATTACK, "legacy", ATTACK),
    ("", ";", ""),
    (";;&&", ";", "&&%26%26"),
])
def test_separate_text_and_bytes(query, separator, expected):
    assert _rewrite.separate(query, separator) == expected
    assert _rewrite.separate(query.encode("ascii"), separator) == expected.encode("ascii")
    if separator is not None:
        assert _rewrite.separate(query.encode("ascii"), separator.encode("ascii")) == \
            expected.encode("ascii")
        assert _rewrite.separate(query, separator.encode("ascii")) == expected


@pytest.mark.parametrize("query", ["q=common_term", u"q=x", b"q=x", ""])
@pytest.mark.parametrize("separator", [None, "&", ";", "|", "legacy"])
def test_separate_returns_its_argument_when_nothing_changes(query, separator):
    assert _rewrite.separate(query, separator) is query
    with_amp = query + (b"&" if isinstance(query, bytes) else u"&") + query
    if separator in (None, "&", "legacy"):
        assert _rewrite.separate(with_amp, separator) is with_amp


def test_separate_leaves_non_strings_to_the_parser():
    marker = object()
    assert _rewrite.separate(marker, ";") is marker
    assert _rewrite.separate(None) is None


@pytest.mark.parametrize("separator", ["&", ";", "|", "="])
def test_separate_gives_a_both_splitting_parser_the_fixed_fields(separator):
    query = "a=1;b=2&c=3|d=4=5;&;e"
    assert both_split(_rewrite.separate(query, separator)) == [
        tuple(piece.replace("&", "%26").replace(";", "%3B") for piece in pair)
        for pair in raw_pairs(query, separator)]


# -- protect(): the query ----------------------------------------------------------------

def test_protect_rewrites_the_query_and_keeps_the_original():
    app = Recorder()
    environ = {"QUERY_STRING": ATTACK}
    assert protect(app)(environ, None) is app.result
    assert app.environ["QUERY_STRING"] == SMUGGLED
    assert app.environ[ORIGINAL_QUERY_STRING] == ATTACK
    assert parse_qsl(ATTACK) == parse_qsl(app.environ["QUERY_STRING"].replace(";", "&"))


def test_a_query_without_semicolon_is_not_copied():
    # No allocation without ';': the environ holds the server's own string.
    app = Recorder()
    query = "".join(["q=common_term", "&page=2"])  # not an interned constant
    protect(app)({"QUERY_STRING": query}, None)
    assert app.environ["QUERY_STRING"] is query
    assert app.environ[ORIGINAL_QUERY_STRING] is query


@pytest.mark.skipif(sys.version_info < (3, 9), reason="tracemalloc.reset_peak: 3.9+")
def test_a_request_without_semicolon_allocates_nothing():
    tracemalloc = importorskip("tracemalloc")  # not on PyPy

    def bare(environ, start_response):
        return start_response

    def peak_growth(app, query, calls=2000):
        """The most memory held at once while *app* serves *calls* requests,
        less what it held before (best of 3: the first run sets things up)."""
        environ, loop, growth = {"QUERY_STRING": query, "CONTENT_LENGTH": ""}, [None] * calls, []
        app(environ, None)  # the first call adds the ORIGINAL_QUERY_STRING key
        for _ in range(3):
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                tracemalloc.reset_peak()
                for _ in loop:
                    environ["QUERY_STRING"] = query  # as received: protect() rewrites it
                    app(environ, None)
                growth.append(tracemalloc.get_traced_memory()[1] - before)
            finally:
                tracemalloc.stop()
        return min(growth)

    query = "q=common_term&utm_content=spring_sale&page=2" * 4
    assert peak_growth(protect(bare), query) <= peak_growth(bare, query)
    # The same measure sees the copy that a ';' costs.
    assert peak_growth(protect(bare), query + ";") >= peak_growth(bare, query) + len(query)


def test_nested_protect_keeps_what_the_server_gave():
    app = Recorder()
    protect(protect(app))({"QUERY_STRING": ATTACK}, None)
    assert app.environ["QUERY_STRING"] == SMUGGLED
    assert app.environ[ORIGINAL_QUERY_STRING] == ATTACK


def test_a_missing_query_is_left_missing():
    app = Recorder()
    protect(app)({}, None)
    assert "QUERY_STRING" not in app.environ
    assert app.environ[ORIGINAL_QUERY_STRING] == ""


def test_the_application_result_and_start_response_pass_through():
    class Result(list):
        closed = False

        def close(self):
            self.closed = True

    def app(environ, start_response):
        start_response("200 OK", [])
        return result

    result, calls = Result([b"x"]), []
    protected = protect(app)
    assert protected({"QUERY_STRING": ATTACK}, lambda *args: calls.append(args)) is result
    assert calls == [("200 OK", [])]
    assert protected.__wrapped__ is app


# -- the separator policy ----------------------------------------------------------------

@pytest.mark.parametrize("variables, expected", [
    ({}, SMUGGLED),
    ({"PYTHON_URLLIB_QS_SEPARATOR": "&"}, SMUGGLED),
    ({"PYTHON_URLLIB_QS_SEPARATOR": ";"}, "q=common_term%26utm_content=s&q=malicious_term"),
    ({"PYTHON_URLLIB_QS_SEPARATOR": "legacy"}, ATTACK),
])
def test_protect_follows_the_separator_variable(variables, expected):
    app = Recorder()
    with policy(**variables):
        protected = protect(app)
        fixed = parse_qsl(ATTACK)
    protected({"QUERY_STRING": ATTACK}, None)
    assert app.environ["QUERY_STRING"] == expected
    assert both_split_decoded(expected) == fixed


def test_the_policy_is_read_when_protect_is_called():
    app = Recorder()
    with policy(PYTHON_URLLIB_QS_SEPARATOR="legacy"):
        protected = protect(app)
    protected({"QUERY_STRING": ATTACK}, None)
    assert app.environ["QUERY_STRING"] == ATTACK


@pytest.mark.parametrize("value", ["", "abc", "&;", "warn"])
def test_a_bad_variable_raises_the_parsers_error_at_wrap_time(value):
    with policy(PYTHON_URLLIB_QS_SEPARATOR=value):
        with pytest.raises(ValueError) as parser_error:
            parse_qsl("a=1")
        with pytest.raises(ValueError) as wrap_error:
            protect(Recorder())
    assert str(wrap_error.value) == str(parser_error.value)
    assert "PYTHON_URLLIB_QS_SEPARATOR" in str(wrap_error.value)


def test_an_explicit_separator_overrides_the_variable():
    app = Recorder()
    with policy(PYTHON_URLLIB_QS_SEPARATOR="legacy"):
        protect(app, separator="&")({"QUERY_STRING": ATTACK}, None)
    assert app.environ["QUERY_STRING"] == SMUGGLED
    with policy(PYTHON_URLLIB_QS_SEPARATOR="abc"):  # not read at all
        protect(app, separator=b";")({"QUERY_STRING": ATTACK}, None)
    assert app.environ["QUERY_STRING"] == "q=common_term%26utm_content=s&q=malicious_term"
    protect(app, separator=u"legacy")({"QUERY_STRING": ATTACK}, None)
    assert app.environ["QUERY_STRING"] == ATTACK


@pytest.mark.parametrize("separator", ["", "&&", u"\xe9", b"\xe9", 1, ["&"]])
def test_a_bad_explicit_separator_raises_at_wrap_time(separator):
    with pytest.raises(ValueError) as error:
        protect(Recorder(), separator=separator)
    assert "one ASCII character or 'legacy'" in str(error.value)


def test_a_non_ascii_variable_is_refused_naming_it():
    with policy(PYTHON_URLLIB_QS_SEPARATOR="\xe9"):
        with pytest.raises(ValueError) as error:
            protect(Recorder())
    assert "(from PYTHON_URLLIB_QS_SEPARATOR)" in str(error.value)


def test_the_warn_switch_warns_naming_the_caller():
    app = Recorder()
    with policy(URLLIB_PARSE_BACKPORT_WARN="1"):
        protected = protect(app)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        protected({"QUERY_STRING": "q=x"}, None)
        assert caught == []
        protected({"QUERY_STRING": ATTACK}, None)
    assert [w.category for w in caught] == [QuerySeparatorWarning]
    assert caught[0].filename.rstrip("c") == __file__.rstrip("c")
    assert app.environ["QUERY_STRING"] == SMUGGLED


def test_an_explicit_separator_never_warns():
    with policy(URLLIB_PARSE_BACKPORT_WARN="1"):
        protected = protect(Recorder(), separator="&")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        protected({"QUERY_STRING": ATTACK}, None)


@pytest.mark.parametrize("limit", [-1, 1.5, "10"])
def test_a_bad_body_limit_raises_at_wrap_time(limit):
    with pytest.raises((ValueError, TypeError)):
        protect(Recorder(), max_body_size=limit)


def test_the_public_names():
    assert sorted(wsgi.__all__) == sorted(["protect", "ORIGINAL_QUERY_STRING", "ORIGINAL_BODY",
                                           "DEFAULT_MAX_BODY_SIZE", "DEFAULT_MAX_HEADER_SIZE",
                                           "DEFAULT_MAX_PARAMETERS", "DEFAULT_MAX_MEMBERS"])
    assert wsgi.ORIGINAL_QUERY_STRING == "urllib_parse_backport.original_query_string"
    assert wsgi.DEFAULT_MAX_BODY_SIZE == 2621440
    assert (wsgi.DEFAULT_MAX_HEADER_SIZE, wsgi.DEFAULT_MAX_PARAMETERS,
            wsgi.DEFAULT_MAX_MEMBERS) == (8192, 32, 16)


def test_imports_are_cheap():
    from fresh_interpreter import run_json
    loaded = run_json(
        "import json, sys, urllib_parse_backport\n"
        "first = 'urllib_parse_backport.wsgi' in sys.modules\n"
        "import urllib_parse_backport.wsgi\n"
        "print(json.dumps([first, 'logging' in sys.modules]))")
    assert loaded == [False, False]
