"""``asgi.protect`` called directly: what reaches the application, message by message.

The HTTP tests (test_asgi_http.py) show the frameworks' view; these pin the
ASGI contract: which scopes change and how (a copy; ``path``/``raw_path``
kept; ``content-length`` true), which bodies are rewritten (the rule of
``wsgi.protect``: test_wsgi_body.py), framing, limits, the policy, and the
ASGI 2 forms. On 2.7 only the ImportError is checked.
"""

import logging
import sys
import warnings

import pytest

PY2 = sys.version_info[0] == 2


def test_python_2_gets_a_clear_import_error():
    if not PY2:
        pytest.skip("Python 2.7 only")
    with pytest.raises(ImportError) as raised:
        import urllib_parse_backport.asgi  # noqa: F401
    assert "needs Python 3" in str(raised.value)
    assert "wsgi.protect" in str(raised.value)


if PY2:
    pytest.skip("ASGI is Python 3 only", allow_module_level=True)

import asyncio  # noqa: E402
import inspect  # noqa: E402

from asgi_apps import recorder, run, run_cancelled, run_failing  # noqa: E402
from wsgi_apps import policy  # noqa: E402

from urllib_parse_backport import QuerySeparatorWarning  # noqa: E402
from urllib_parse_backport.asgi import ORIGINAL_BODY, ORIGINAL_QUERY_STRING, protect  # noqa: E402

URLENCODED = b"application/x-www-form-urlencoded"
BODY = b"q=common_term&utm_content=s;q=malicious_term"
SAFE_BODY = b"q=common_term&utm_content=s%3Bq=malicious_term"

pytestmark = pytest.mark.usefixtures("no_label_blind_parser")


def http(query=b"", headers=(), method="POST", version="1.1"):
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": version,
            "method": method, "scheme": "http", "path": "/a;b", "raw_path": b"/a;b",
            "root_path": "", "query_string": query, "headers": list(headers)}


def body_messages(*chunks):
    return [{"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
            for i, chunk in enumerate(chunks)]


def seen_by_app(scope, messages=(), **options):
    seen = []
    run(protect(recorder(seen), **options), scope, messages)
    (scope, received), = seen
    return scope, received


def received_body(received):
    return b"".join(m.get("body", b"") for m in received if m["type"] == "http.request")


def header(scope, name):
    return dict(scope["headers"]).get(name)


@pytest.mark.parametrize("kind", ["lifespan"])
def test_other_scopes_pass_untouched(kind):
    scope = {"type": kind, "query_string": b"a=1;b=2", "headers": []}
    seen = []
    run(protect(recorder(seen)), scope)
    assert seen[0][0] is scope
    assert scope == {"type": kind, "query_string": b"a=1;b=2", "headers": []}


def test_the_query_is_rewritten_on_a_copy_path_and_raw_path_kept():
    server_scope = http(b"q=1;q=2", method="GET")
    scope, _ = seen_by_app(server_scope)
    assert scope["query_string"] == b"q=1%3Bq=2"
    assert scope[ORIGINAL_QUERY_STRING] == b"q=1;q=2"
    assert (scope["path"], scope["raw_path"]) == ("/a;b", b"/a;b")
    assert server_scope["query_string"] == b"q=1;q=2" and ORIGINAL_QUERY_STRING not in server_scope


def test_nested_protect_keeps_the_servers_query():
    seen = []
    run(protect(protect(recorder(seen))), http(b"q=1;q=2", method="GET"))
    assert seen[0][0][ORIGINAL_QUERY_STRING] == b"q=1;q=2"


def test_a_form_with_a_length_is_received_first_and_its_length_kept_true():
    headers = [(b"content-type", URLENCODED), (b"content-length", b"%d" % len(BODY))]
    scope, received = seen_by_app(http(headers=headers), body_messages(BODY[:20], BODY[20:]))
    assert received_body(received) == SAFE_BODY
    assert header(scope, b"content-length") == b"%d" % len(SAFE_BODY)
    assert scope[ORIGINAL_BODY] == BODY


@pytest.mark.parametrize("charset", [b"; charset=latin-1", b"; charset=no-such-codec", b""])
def test_a_chunked_form_is_rewritten_as_it_comes(charset):
    headers = [(b"content-type", URLENCODED + charset), (b"transfer-encoding", b"chunked")]
    chunks = [BODY[:27], BODY[27:28], BODY[28:]]  # the ';' alone in a message
    scope, received = seen_by_app(http(headers=headers), body_messages(*chunks))
    assert [m["body"] for m in received] == [BODY[:27], b"%3B", BODY[28:]]
    assert header(scope, b"content-length") is None and ORIGINAL_BODY not in scope


def test_http2_without_a_length_is_a_body_too():
    headers = [(b"content-type", URLENCODED)]
    scope, received = seen_by_app(http(headers=headers, version="2"), body_messages(BODY))
    assert received_body(received) == SAFE_BODY


@pytest.mark.parametrize("content_type, body, rewritten", [
    (None, BODY, True),                          # unlabelled: cgi, WebOb, CherryPy
    (None, b"<a>;</a>", True),                   # whatever its bytes
    (None, b"a=1; b=2", True),
    (b"text/plain", BODY, False),                # nobody's form but a label-blind one's
    (b"application/json", b'{"a":";"}', False),
    (b"multipart/form-data; boundary=x", BODY, False),
])
def test_the_body_rule_is_the_wsgi_ones(content_type, body, rewritten):
    headers = [(b"content-length", b"%d" % len(body))]
    if content_type is not None:
        headers.append((b"content-type", content_type))
    scope, received = seen_by_app(http(headers=headers), body_messages(body[:5], body[5:]))
    expected = body.replace(b";", b"%3B") if rewritten else body
    assert received_body(received) == expected
    assert header(scope, b"content-length") == b"%d" % len(expected)


#: A body no sniffing takes for a form (a space), that a parser told it is one splits.
SPACED = b"q=common_term&utm_content=s s;q=malicious_term"


@pytest.mark.parametrize("labels, rewritten", [
    # Starlette reads the first label, others the last, Django joins them: a
    # form under any of them is rewritten.
    ([URLENCODED, b"text/plain"], True),
    ([b"text/plain", URLENCODED], True),
    ([b"multipart/form-data; boundary=x", URLENCODED], True),
    ([b"multipart/form-data; boundary=x", b"text/plain"], False),  # nobody's form
    ([b"multipart/form-data; boundary=x", b"multipart/mixed; boundary=y"], False),
])
def test_a_repeated_content_type_is_a_form_if_any_label_says_so(labels, rewritten):
    headers = [(b"content-length", b"%d" % len(SPACED))]
    headers += [(b"content-type", label) for label in labels]
    _, received = seen_by_app(http(headers=headers), body_messages(SPACED))
    assert received_body(received) == (SPACED.replace(b";", b"%3B") if rewritten else SPACED)


def test_header_names_count_in_any_case():
    # ASGI servers send them lower-cased; Django's handler would read these anyway.
    headers = [(b"Content-Type", URLENCODED), (b"CONTENT-LENGTH", b"%d" % len(SPACED))]
    _, received = seen_by_app(http(headers=headers), body_messages(SPACED))
    assert received_body(received) == SPACED.replace(b";", b"%3B")


TOO_LARGE_TEXT = (b"This request's body could be read as a form and is larger than the server "
                  b"accepts for one.\n")
TOO_LARGE = [
    {"type": "http.response.start", "status": 413,
     "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                 (b"content-length", b"%d" % len(TOO_LARGE_TEXT))]},
    {"type": "http.response.body", "body": TOO_LARGE_TEXT},
]


@pytest.mark.parametrize("headers", [
    [(b"content-type", URLENCODED), (b"content-length", b"%d" % len(BODY))],  # never received
    [(b"content-length", b"%d" % len(BODY))],  # unlabelled: cgi's, WebOb's under WSGI
])
def test_over_the_limit_a_form_is_refused_with_413_and_logged(caplog, headers):
    # Passed on as received, its ';' would split fields in any parser behind
    # that sets no limit of its own (Starlette; WebOb and cgi under WSGI).
    seen = []
    with caplog.at_level(logging.WARNING, logger="urllib_parse_backport"):
        sent = run(protect(recorder(seen), max_body_size=len(BODY) - 1), http(headers=headers),
                   body_messages(BODY[:20], BODY[20:]))
    assert seen == [] and sent == TOO_LARGE
    assert "over max_body_size=%d" % (len(BODY) - 1) in caplog.text
    assert "asgi.protect: POST '/a;b': refused with 413" in caplog.text


@pytest.mark.parametrize("length", [b"-1", b"abc", b"44x"])
def test_a_length_that_is_not_a_number_of_bytes_is_refused(caplog, length):
    # Servers refuse it; one that did not would hand the body on, and Starlette
    # reads the messages whatever the header says.
    seen = []
    headers = [(b"content-type", URLENCODED), (b"content-length", length)]
    with caplog.at_level(logging.WARNING, logger="urllib_parse_backport"):
        sent = run(protect(recorder(seen)), http(headers=headers), body_messages(BODY))
    text = (b"This request's Content-Length is not a number of bytes, and its body could "
            b"be read as a form.\n")
    assert seen == [] and sent == [
        {"type": "http.response.start", "status": 400,
         "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                     (b"content-length", b"%d" % len(text))]},
        {"type": "http.response.body", "body": text}]
    assert "refused with 400 Bad Request" in caplog.text
    assert "content-length %r is not a number of bytes" % (length.decode(),) in caplog.text


def test_a_label_blind_parser_loaded_counts_under_asgi_too(label_blind_parser):
    # A Bottle application can run behind an ASGI adapter (asgiref's WsgiToAsgi).
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(BODY))]
    _, received = seen_by_app(http(headers=headers), body_messages(BODY))
    assert received_body(received) == SAFE_BODY


def test_over_the_limit_a_label_blind_form_is_refused(caplog):
    # Told that a parser behind reads any label, protect() cannot assume it
    # refuses large bodies itself (as Bottle 0.12 does under WSGI).
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(BODY))]
    seen = []
    with caplog.at_level(logging.WARNING, logger="urllib_parse_backport"):
        sent = run(protect(recorder(seen), max_body_size=10, label_blind=True),
                   http(headers=headers), body_messages(BODY))
    assert seen == [] and sent == TOO_LARGE


def test_within_the_limit_and_without_one_a_form_is_rewritten():
    headers = [(b"content-type", b"text/plain"), (b"content-length", b"%d" % len(BODY))]
    for limit in (len(BODY), None):
        _, received = seen_by_app(http(headers=headers), body_messages(BODY), max_body_size=limit,
                                  label_blind=True)
        assert received_body(received) == SAFE_BODY


def test_a_client_gone_mid_body_is_refused_not_handed_on():
    # a2wsgi, asgiref and Starlette's WSGIMiddleware end the body at the
    # disconnect: handed on, the bytes that came would be parsed unrewritten.
    headers = [(b"content-type", URLENCODED), (b"content-length", b"100")]
    seen = []
    sent = run(protect(recorder(seen)), http(headers=headers), body_messages(b"a=1;", b"b")[:1] + [
        {"type": "http.request", "body": b"b", "more_body": True}])
    assert seen == [] and sent[0]["status"] == 400


@pytest.mark.parametrize("label", [URLENCODED, None])
def test_a_body_sent_in_one_byte_messages_reaches_the_app_as_one(label):
    # A server may make a message of each chunk of a body (hypercorn's h11
    # does). What was received ahead is handed on in one message, not held and
    # replayed as 10,002 (which took time quadratic in their number).
    body = b"a" * 10000 + b"\x00;"
    headers = [(b"content-length", b"%d" % len(body))]
    headers += [(b"content-type", label)] if label else []
    scope, received = seen_by_app(http(headers=headers), body_messages(*[
        body[i:i + 1] for i in range(len(body))]))
    assert [(m["type"], m["more_body"]) for m in received] == [("http.request", False)]
    assert received_body(received) == body.replace(b";", b"%3B")


def test_another_separator_and_legacy():
    headers = [(b"content-type", URLENCODED), (b"content-length", b"11")]
    scope, received = seen_by_app(http(b"a=1;b=2&c", headers=headers),
                                  body_messages(b"a=1;b=2&c=3"), separator=";")
    assert scope["query_string"] == b"a=1&b=2%26c"
    assert received_body(received) == b"a=1&b=2%26c=3"
    with policy(PYTHON_URLLIB_QS_SEPARATOR="legacy"):
        scope, received = seen_by_app(http(b"a=1;b=2", headers=headers),
                                      body_messages(b"a=1;b=2&c=3"))
    assert scope["query_string"] == b"a=1;b=2" and received_body(received) == b"a=1;b=2&c=3"
    assert scope[ORIGINAL_QUERY_STRING] == b"a=1;b=2"


def test_the_warn_switch_warns_for_the_query_and_the_body():
    headers = [(b"content-type", URLENCODED), (b"content-length", b"7")]
    with policy(URLLIB_PARSE_BACKPORT_WARN="1"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scope, received = seen_by_app(http(b"a=1;b=2", headers=headers), body_messages(b"c=3;d=4"))
    assert [w.category for w in caught] == [QuerySeparatorWarning, QuerySeparatorWarning]
    assert scope["query_string"] == b"a=1%3Bb=2" and received_body(received) == b"c=3%3Bd=4"


def test_a_bad_separator_raises_at_protect():
    with pytest.raises(ValueError):
        protect(recorder([]), separator="&&")


def test_servers_see_an_asgi3_app_and_asgi2_calls_work_too():
    protected = protect(recorder([]))
    assert asyncio.iscoroutinefunction(protected)  # uvicorn's test for ASGI 3
    if hasattr(inspect, "markcoroutinefunction"):  # 3.12+: hypercorn's test
        assert inspect.iscoroutinefunction(protected)
    seen = []
    protected = protect(recorder(seen))

    def asgi2_server_call(scope, receive, send):
        return protected(scope)(receive, send)
    run(asgi2_server_call, http(b"a=1;b=2", method="GET"))
    assert seen[0][0]["query_string"] == b"a=1%3Bb=2"


def test_an_asgi2_application_is_instantiated_per_scope():
    seen = []
    inner = recorder(seen)

    class ASGI2(object):
        def __init__(self, scope):
            self.scope = scope

        def __call__(self, receive, send):
            return inner(self.scope, receive, send)

    run(protect(ASGI2), http(b"a=1;b=2", method="GET"))
    assert seen[0][0]["query_string"] == b"a=1%3Bb=2"


def test_errors_and_cancellation_pass_through_the_coroutines():
    # An unlabelled body is received first, through _await's delegation.
    headers = [(b"content-type", b"text/plain"), (b"content-length", b"3")]
    raised = run_failing(protect(recorder([])), http(headers=headers))
    assert isinstance(raised, OSError) and str(raised) == "connection reset"
    assert run_cancelled(protect(recorder([])), http(headers=headers)) is True
