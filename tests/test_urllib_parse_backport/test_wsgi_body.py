"""``wsgi.protect``: urlencoded bodies (``wsgi.input`` and ``CONTENT_LENGTH``).

Which bodies are rewritten, which are left exactly as the server gave them
(and which of those are logged), and that the replacement stream reads as a
server's stream does: ``read()``, ``read(n)``, ``readline()``, ``readlines()``
and iteration (PEP 3333). Every test runs without a label-blind parser
loaded unless it asks for one (``label_blind_parser``).
"""

import io
import logging
import warnings

import pytest

from fresh_interpreter import ATTACK
from wsgi_apps import dechunk, frame_chunks

from urllib_parse_backport import QuerySeparatorWarning, read_environment
from urllib_parse_backport.wsgi import ORIGINAL_BODY, protect

BODY = ATTACK.encode("ascii")
FIXED = b"q=common_term&utm_content=s%3Bq=malicious_term"
URLENCODED = "application/x-www-form-urlencoded"

pytestmark = pytest.mark.usefixtures("no_label_blind_parser")


class Recorder(object):
    """A WSGI app that keeps its environ and, if *read*, what it read of the body."""

    def __init__(self, read=None):
        self.read = read
        self.environ = self.body = None

    def __call__(self, environ, start_response):
        self.environ = environ
        if self.read is not None:
            self.body = self.read(environ["wsgi.input"])
        return []


def post(body, content_type=URLENCODED, length=None, app=None, **options):
    """POST *body* through ``protect(app)``; returns the recorder."""
    app = app or Recorder(lambda stream: stream.read())
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/form", "QUERY_STRING": "",
               "wsgi.input": io.BytesIO(body),
               "CONTENT_LENGTH": str(len(body)) if length is None else length}
    if content_type is not None:
        environ["CONTENT_TYPE"] = content_type
    app.server_stream = environ["wsgi.input"]
    app.answer = refusal(protect(app, **options), environ)
    return app


def refusal(protected, environ):
    """Call *protected*; ``(status, headers, body)`` if it answered itself, else None."""
    answered = []
    result = protected(environ, lambda status, headers: answered.append((status, headers)))
    return answered and (answered[0][0], answered[0][1], b"".join(result)) or None


#: What protect() answers to a form over max_body_size.
TOO_LARGE_TEXT = (b"This request's body could be read as a form and is larger than the server "
                  b"accepts for one.\n")
TOO_LARGE = ("413 Payload Too Large", [("Content-Type", "text/plain; charset=utf-8"),
                                       ("Content-Length", str(len(TOO_LARGE_TEXT)))],
             TOO_LARGE_TEXT)


BAD_LENGTH_TEXT = (b"This request's Content-Length is not a number of bytes, and its body "
                   b"could be read as a form.\n")
BAD_LENGTH = ("400 Bad Request", [("Content-Type", "text/plain; charset=utf-8"),
                                  ("Content-Length", str(len(BAD_LENGTH_TEXT)))],
              BAD_LENGTH_TEXT)


def refused(app, log, reason, answer=TOO_LARGE):
    """*app* was never called: protect() gave *answer*, and logged *reason* once."""
    messages = [record.getMessage() for record in log.records]
    return (app.environ is None and app.answer == answer and len(messages) == 1
            and "refused with %s" % answer[0] in messages[0] and reason in messages[0])


@pytest.fixture
def log(caplog):
    caplog.set_level(logging.WARNING, logger="urllib_parse_backport")
    return caplog


def untouched(app, body, length=None):
    """The app got the server's own stream, with *body*, and the same length."""
    return (app.environ["wsgi.input"] is app.server_stream
            and app.server_stream.getvalue() == body and ORIGINAL_BODY not in app.environ
            and app.environ["CONTENT_LENGTH"] == (str(len(body)) if length is None else length))


@pytest.mark.parametrize("content_type", [
    URLENCODED, "application/x-www-form-urlencoded; charset=UTF-8",
    "Application/X-WWW-Form-URLEncoded ; charset=\"latin-1\"",
    "application/x-www-form-urlencoded; charset=unknown-charset",
])
def test_an_urlencoded_body_is_rewritten(content_type, log):
    app = post(BODY, content_type)
    assert app.body == FIXED
    assert app.environ["CONTENT_LENGTH"] == str(len(FIXED))
    assert app.environ[ORIGINAL_BODY] == BODY
    assert log.records == []


def test_a_body_without_semicolon_reaches_the_app_as_it_came():
    body = b"q=common_term&page=2"
    app = post(body)
    assert app.body == body
    assert app.environ["CONTENT_LENGTH"] == str(len(body))
    assert app.environ[ORIGINAL_BODY] == body


def test_nested_protect_keeps_the_body_the_server_gave():
    app = Recorder(lambda stream: stream.read())
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": URLENCODED,
               "CONTENT_LENGTH": str(len(BODY)), "wsgi.input": io.BytesIO(BODY)}
    protect(protect(app))(environ, None)
    assert app.body == FIXED and app.environ[ORIGINAL_BODY] == BODY


def test_the_warn_switch_warns_for_bodies_naming_the_caller():
    app = Recorder(lambda stream: stream.read())
    read_environment({"URLLIB_PARSE_BACKPORT_WARN": "1"})
    try:
        protected = protect(app)
    finally:
        read_environment()
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": URLENCODED,
               "CONTENT_LENGTH": str(len(BODY)), "wsgi.input": io.BytesIO(BODY)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        protected(environ, None)
    assert [w.category for w in caught] == [QuerySeparatorWarning]
    assert caught[0].filename.rstrip("c") == __file__.rstrip("c")
    assert app.body == FIXED


def test_the_separator_policy_applies_to_bodies():
    assert post(BODY, separator=";").body == b"q=common_term%26utm_content=s&q=malicious_term"
    app = post(BODY, separator="legacy")
    assert app.body == BODY and ORIGINAL_BODY not in app.environ


@pytest.mark.parametrize("content_type", [
    "multipart/form-data; boundary=xyz", "Multipart/Mixed; boundary=xyz",
])
def test_a_multipart_body_is_not_read(content_type, log):
    # Every parser tells multipart by this prefix and splits its fields on the boundary.
    app = post(BODY, content_type, app=Recorder())
    assert untouched(app, BODY) and app.server_stream.tell() == 0
    assert log.records == []


@pytest.mark.parametrize("content_type", [
    # cgi.FieldStorage and WebOb parse an unlabelled POST as a form, CherryPy
    # an unlabelled body of any method; every parser a superset of the label.
    "", None, "application/x-www-form-urlencodedx",
])
def test_an_unlabelled_body_is_a_form_whatever_its_bytes(content_type, log):
    for body in [BODY] + NOT_FORMS:
        app = post(body, content_type)
        assert app.body == body.replace(b";", b"%3B")
        assert app.environ["CONTENT_LENGTH"] == str(len(app.body))
        assert app.environ[ORIGINAL_BODY] == body
    assert log.records == []


@pytest.mark.parametrize("content_type", [
    "text/plain", "application/json", "application/octet-stream", "text/css",
    "text/plain;charset=UTF-8", " multipart/form-data; boundary=x",
])
def test_a_body_under_another_label_is_nobodys_form(content_type, log):
    # No parser but a label-blind one reads it as a form: not read at all.
    app = post(BODY, content_type, app=Recorder())
    assert untouched(app, BODY) and app.server_stream.tell() == 0
    assert log.records == []


@pytest.mark.parametrize("content_type", [
    "text/plain", "application/json", "application/octet-stream",
    " multipart/form-data; boundary=x",  # Bottle does not strip it: not multipart
])
def test_with_a_label_blind_parser_loaded_every_body_but_multipart_is_a_form(
        content_type, label_blind_parser, log):
    app = post(BODY, content_type)
    assert app.body == FIXED and app.environ["CONTENT_LENGTH"] == str(len(FIXED))
    assert app.environ[ORIGINAL_BODY] == BODY
    assert untouched(post(BODY, "multipart/form-data; boundary=x", app=Recorder()), BODY)


def test_protect_names_the_label_blind_parser_when_it_is_made(label_blind_parser, caplog):
    caplog.set_level(logging.INFO, logger="urllib_parse_backport")
    protect(Recorder())
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "bottle._parse_qsl" in caplog.records[0].getMessage()


def test_protect_says_which_bodies_it_rewrites_when_it_is_made(caplog):
    caplog.set_level(logging.INFO, logger="urllib_parse_backport")
    protect(Recorder())
    assert [r.levelname for r in caplog.records] == ["INFO"]
    assert "unlabelled" in caplog.records[0].getMessage()


def test_a_fixed_label_blind_parser_counts_for_nothing(label_blind_parser, log):
    # Bottle 0.12.19, or 0.12.18 under patch(frameworks=True), splits on '&' only.
    label_blind_parser._parse_qsl = lambda qs: [tuple(p.split("=", 1)) for p in qs.split("&")]
    app = post(BODY, "text/plain", app=Recorder())
    assert untouched(app, BODY)


#: Bodies no urlencoded form is: each holds a ';' that must stay a ';'.
NOT_FORMS = [
    b'{"q":"common_term;q=malicious_term","n":[1,2]}',  # JSON.stringify's output
    b'{\n  "q": "a;b=c"\n}',
    b'["&q=x;q=y&"]',
    b"<p>a&amp;b=c;d</p>",
    b"a=1;b=2 and some prose; with spaces",
    b"a=1;b=2\r\nc=3",
    b"a=1;b=2\tc=3",
    b"\x00\x01q=1;q=2",
    b"q=1;q=\xc3\xa9",
    b"--xyz\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\na;b\r\n--xyz--\r\n",
]


@pytest.mark.parametrize("content_type", [
    "text/plain", "application/json", "application/octet-stream",
])
@pytest.mark.parametrize("body", NOT_FORMS + [BODY])
def test_a_body_that_is_not_a_form_arrives_byte_identical(body, content_type, log):
    app = post(body, content_type)
    assert app.body == body and app.environ["CONTENT_LENGTH"] == str(len(body))
    assert log.records == []


def test_an_unlabelled_form_shaped_body_over_the_limit_is_refused(log):
    # cgi.FieldStorage (and WebOb 1.8 through it) parses it as a form, without a limit.
    assert refused(post(BODY, None, max_body_size=10), log, "over max_body_size=10")


@pytest.mark.parametrize("label", ["text/plain", "application/json"])
def test_a_body_labelled_otherwise_is_passed_on_over_the_limit(log, label, label_blind_parser):
    # Only Bottle 0.12 parses it as a form, and refuses it over its 100 KiB
    # MEMFILE_MAX; a large compact JSON document has no spaces either.
    app = post(BODY, label, max_body_size=10)
    assert app.body == BODY and app.environ["CONTENT_LENGTH"] == str(len(BODY))
    passed = [r.getMessage() for r in log.records if "passed on as received" in r.getMessage()]
    assert len(passed) == 1 and "over max_body_size=10" in passed[0]


def test_a_binary_body_over_the_limit_passes_silently(log):
    body = b"\x89PNG;" + b"x" * 100
    assert post(body, "image/png", max_body_size=10).body == body
    assert log.records == []


@pytest.mark.parametrize("length", ["0"])
def test_bodies_of_length_zero_are_untouched(length, log):
    app = post(BODY, length=length, app=Recorder())
    assert untouched(app, BODY, length)
    assert log.records == []


@pytest.mark.parametrize("length", ["-3", "-1", "abc", "44x", "4 4"])
@pytest.mark.parametrize("label", [URLENCODED, None])
def test_a_length_that_is_not_a_number_of_bytes_is_refused(length, label, log):
    # cgi.FieldStorage reads such a body to the end of the stream, and splits it.
    app = post(BODY, label, length=length, app=Recorder())
    assert refused(app, log, "Content-Length %r is not a number of bytes" % (length,),
                   BAD_LENGTH)
    assert app.server_stream.tell() == 0


@pytest.mark.parametrize("label", ["multipart/form-data; boundary=x", "text/plain"])
def test_a_body_of_nobodys_form_with_a_bad_length_is_left_to_the_application(label, log):
    app = post(BODY, label, length="abc", app=Recorder())
    assert untouched(app, BODY, "abc") and log.records == []


def test_a_form_over_the_limit_is_refused_unread_and_logged_once(log):
    # Passed on as received, its ';' would split fields in any parser behind
    # that sets no limit of its own (WebOb, cgi).
    app = post(BODY, max_body_size=len(BODY) - 1)
    assert refused(app, log, "POST '/form': refused")
    assert "%d bytes, over max_body_size=%d" % (len(BODY), len(BODY) - 1) in \
        log.records[0].getMessage()
    assert app.server_stream.tell() == 0  # the length said enough: nothing was read


def test_the_limit_is_inclusive_and_none_means_no_limit(log):
    assert post(BODY, max_body_size=len(BODY)).body == FIXED
    assert post(BODY * 1000, max_body_size=None).body == FIXED * 1000
    assert log.records == []


def test_zero_limit_refuses_every_form_body(log):
    assert refused(post(BODY, max_body_size=0), log, "over max_body_size=0")
    log.clear()
    assert post(b'{"a":";"}', "application/json", max_body_size=0).body == b'{"a":";"}'


def chunked_environ(body, content_type=URLENCODED, terminated=True, stream=None):
    """The environ gunicorn, cheroot and Werkzeug build for a chunked body they de-chunked."""
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/form", "QUERY_STRING": "",
               "HTTP_TRANSFER_ENCODING": "chunked",
               "wsgi.input": io.BytesIO(body) if stream is None else stream}
    if terminated:
        environ["wsgi.input_terminated"] = True
    if content_type is not None:
        environ["CONTENT_TYPE"] = content_type
    return environ


def test_a_chunked_urlencoded_body_is_rewritten_as_the_app_reads_it(log):
    seen = []
    app = Recorder(lambda stream: (seen.append(server.tell()), stream.read())[1])
    environ = chunked_environ(BODY)
    server = environ["wsgi.input"]
    protect(app, max_body_size=10)(environ, None)  # no memory held: no limit
    assert seen == [0]  # nothing was read before the application ran
    assert app.body == FIXED
    assert "CONTENT_LENGTH" not in app.environ and ORIGINAL_BODY not in app.environ
    assert log.records == []


def test_a_chunked_unlabelled_body_is_rewritten_as_the_app_reads_it():
    app = Recorder(lambda stream: stream.read())
    protect(app)(chunked_environ(BODY, None), None)
    assert app.body == FIXED and ORIGINAL_BODY not in app.environ
    assert "CONTENT_LENGTH" not in app.environ


@pytest.mark.parametrize("body", NOT_FORMS + [BODY])
def test_a_chunked_body_that_is_not_a_form_arrives_byte_identical(body):
    app = Recorder(lambda stream: stream.read())
    protect(app)(chunked_environ(body, "text/plain"), None)
    assert app.body == body


def test_a_request_with_no_length_framing_or_end_of_stream_has_no_body(log):
    # No Content-Length, no Transfer-Encoding, no wsgi.input_terminated: in
    # HTTP/1.x that request has no body, and reading could wait for ever.
    app = Recorder()
    environ = chunked_environ(BODY, "text/plain", terminated=False)
    del environ["HTTP_TRANSFER_ENCODING"]
    stream = environ["wsgi.input"]
    protect(app)(environ, None)
    assert app.environ["wsgi.input"] is stream and stream.tell() == 0
    assert log.records == []


def test_a_form_in_another_transfer_coding_without_an_end_of_stream_is_rewritten_as_read():
    # No server de-chunked it and none ends it: a reader that reads to the end
    # of the stream (cgi.FieldStorage) gets what the client sends until it closes.
    app = Recorder(lambda stream: stream.read())
    environ = chunked_environ(BODY, URLENCODED, terminated=False)
    environ["HTTP_TRANSFER_ENCODING"] = "gzip"
    protect(app)(environ, None)
    assert app.body == FIXED


@pytest.mark.parametrize("content_type", [URLENCODED, None])
def test_a_body_with_neither_header_on_a_stream_the_server_ends_is_rewritten(content_type):
    # HTTP/2 frames a body itself: a request may carry one with neither a
    # Content-Length nor Transfer-Encoding, and the server marks the end.
    app = Recorder(lambda stream: stream.read())
    environ = chunked_environ(BODY, content_type)
    del environ["HTTP_TRANSFER_ENCODING"]
    protect(app)(environ, None)
    assert app.body == FIXED


def test_a_request_without_a_body_keeps_the_servers_stream():
    # gunicorn sets wsgi.input_terminated on every request, GETs included.
    app = Recorder(lambda stream: stream.read())
    environ = chunked_environ(b"", None)
    del environ["HTTP_TRANSFER_ENCODING"]
    environ["REQUEST_METHOD"] = "GET"
    stream = environ["wsgi.input"]
    protect(app)(environ, None)
    assert app.environ["wsgi.input"] is stream and app.body == b""
    assert ORIGINAL_BODY not in app.environ


TRAILERS = b"X-Trailer: 1\r\n\r\n"


def framed_environ(body, content_type):
    """The environ wsgiref builds for a chunked request: the framing left in the stream."""
    return chunked_environ(None, content_type, terminated=False, stream=io.BytesIO(body))


@pytest.mark.parametrize("content_type", [URLENCODED, None])
def test_a_framed_chunked_form_is_read_to_its_last_chunk_and_reframed(content_type, log):
    # wsgiref passes the chunked framing on; Bottle de-chunks it itself.
    app = Recorder(lambda stream: stream.read())
    assert BODY[27:28] == b";"  # the attack cut across chunks, the ';' alone in one
    data = (b"a;name=value\r\n" + BODY[:10] + b"\r\n"  # a chunk extension
            + frame_chunks([BODY[10:27], b";", BODY[28:]]) + TRAILERS)
    protect(app)(framed_environ(data, content_type), None)
    body, rest = dechunk(app.body)
    assert body == FIXED and rest == TRAILERS  # the trailers come from the server's stream
    assert app.environ[ORIGINAL_BODY] == BODY
    assert log.records == []


def test_a_framed_chunked_body_is_never_read_past_its_last_chunk():
    seen = []
    app = Recorder(lambda stream: (seen.append(server.tell()), stream.read())[1])
    data = frame_chunks([BODY])
    environ = framed_environ(data + TRAILERS, URLENCODED)
    server = environ["wsgi.input"]
    protect(app)(environ, None)
    assert seen == [len(data)]  # read ahead exactly to the last-chunk line


@pytest.mark.parametrize("body", NOT_FORMS)
def test_a_framed_chunked_body_that_is_not_a_form_arrives_byte_identical(body):
    app = Recorder(lambda stream: stream.read())
    data = frame_chunks([body[:5], body[5:]]) + TRAILERS
    protect(app)(framed_environ(data, "text/plain"), None)
    assert app.body == data and ORIGINAL_BODY not in app.environ


@pytest.mark.parametrize("content_type", [URLENCODED, None])
@pytest.mark.parametrize("broken", [
    b"zz\r\n" + BODY + b"\r\n0\r\n\r\n",  # no hex size
    b"%x\n%s\r\n0\r\n\r\n" % (len(BODY), BODY),  # a bare LF after the size
    b"%x\r\n%sXY0\r\n\r\n" % (len(BODY), BODY),  # no CRLF after the data
    b"%x\r\n%s" % (len(BODY) + 5, BODY),  # shorter than its size
])
def test_broken_framing_lets_no_semicolon_through(content_type, broken):
    # Whatever the application makes of a frame it may not even accept, no ';'
    # of the client's reaches it to split a field.
    app = Recorder(lambda stream: stream.read())
    protect(app)(framed_environ(broken, content_type), None)
    assert b";" not in app.body and app.body.replace(b"%3B", b";") == broken


@pytest.mark.parametrize("label", [URLENCODED, None])
def test_a_framed_form_over_the_limit_is_refused(log, label):
    app = Recorder(lambda stream: stream.read())
    data = frame_chunks([BODY, BODY]) + TRAILERS
    app.answer = refusal(protect(app, max_body_size=len(BODY)), framed_environ(data, label))
    assert refused(app, log, "chunked, over max_body_size=%d" % len(BODY))


def test_a_framed_body_labelled_otherwise_over_the_limit_is_left_alone_and_logged(
        log, label_blind_parser):
    app = Recorder(lambda stream: stream.read())
    data = frame_chunks([BODY, BODY]) + TRAILERS
    protect(app, max_body_size=len(BODY))(framed_environ(data, "text/plain"), None)
    assert app.body == data
    passed = [r.getMessage() for r in log.records if "passed on as received" in r.getMessage()]
    assert len(passed) == 1 and "over max_body_size" in passed[0]


def test_the_warn_switch_warns_once_for_a_chunked_body_naming_the_reader():
    app = Recorder(lambda stream: list(iter(lambda: stream.read(3), b"")))
    read_environment({"URLLIB_PARSE_BACKPORT_WARN": "1"})
    try:
        protected = protect(app)
    finally:
        read_environment()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        protected(chunked_environ(BODY * 3), None)
    assert [w.category for w in caught] == [QuerySeparatorWarning]
    assert caught[0].filename.rstrip("c") == __file__.rstrip("c")
    assert b"".join(app.body) == FIXED * 3


@pytest.mark.parametrize("charset", [
    "utf-8", "UTF-8", "latin-1", '"iso-8859-1"', "windows-1252", "shift_jis",
    "no-such-charset",  # Django ignores a charset Python does not know
])
def test_an_ascii_transparent_charset_leaves_the_rewrite_to_apply(charset, log):
    app = post(BODY, URLENCODED + "; charset=" + charset)
    assert app.body == FIXED
    assert log.records == []


class Trickle(object):
    """A server stream whose ``read(n)`` returns at most 3 bytes, and may end early."""

    def __init__(self, data):
        self.data = data

    def read(self, size=-1):
        size = 3 if size is None or size < 0 else min(size, 3)
        chunk, self.data = self.data[:size], self.data[size:]
        return chunk


def test_short_reads_are_read_to_the_end():
    app = Recorder(lambda stream: stream.read())
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": URLENCODED,
               "CONTENT_LENGTH": str(len(BODY)), "wsgi.input": Trickle(BODY)}
    protect(app)(environ, None)
    assert app.body == FIXED and app.environ["CONTENT_LENGTH"] == str(len(FIXED))


def test_a_body_shorter_than_its_length_is_refused():
    # The client sent 10 bytes fewer than announced, then stopped: the body
    # is refused whole, never handed on (an ASGI-to-WSGI adapter would end it
    # at the disconnect, and the parser behind would read what came).
    app = Recorder(lambda stream: stream.read())
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": URLENCODED,
               "CONTENT_LENGTH": str(len(BODY) + 10), "wsgi.input": Trickle(BODY)}
    status = []
    answer = b"".join(protect(app)(environ, lambda s, h: status.append(s)))
    assert status == ["400 Bad Request"] and b"Content-Length" in answer
    assert app.environ is None


def test_the_body_is_not_read_past_its_length():
    stream = io.BytesIO(BODY + b"NEXT REQUEST")
    app = Recorder(lambda stream: stream.read())
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": URLENCODED,
               "CONTENT_LENGTH": str(len(BODY)), "wsgi.input": stream}
    protect(app)(environ, None)
    assert app.body == FIXED and stream.read() == b"NEXT REQUEST"


#: Each way PEP 3333 lets an application read wsgi.input, as a list of what it got.
READERS = {
    "read()": lambda s: [s.read()],
    "read(-1)": lambda s: [s.read(-1)],
    "read(None)": lambda s: [s.read(None)],
    "read(5)": lambda s: iter(lambda: s.read(5), b""),
    "readline()": lambda s: iter(s.readline, b""),
    "readline(4)": lambda s: iter(lambda: s.readline(4), b""),
    "readlines()": lambda s: s.readlines(),
    "readlines(10)": lambda s: s.readlines(10) + s.readlines(),
    "iteration": lambda s: s,
    "read(3), then readline()": lambda s: [s.read(3)] + list(iter(s.readline, b"")),
}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("body, expected", [
    (b"a=1;b=2\nc=3;d\n\ne=5;", b"a=1%3Bb=2\nc=3%3Bd\n\ne=5%3B"),
    (b"a=1&b=2\nc=3\n", b"a=1&b=2\nc=3\n"),
])
def test_the_new_stream_reads_as_the_server_stream_would(reader, body, expected):
    app = Recorder(lambda stream: list(READERS[reader](stream)))
    post(body, app=app)
    assert app.body == list(READERS[reader](io.BytesIO(expected)))
    assert b"".join(app.body) == expected


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize("body, expected", [
    (b"a=1;b=2\nc=3;d\n\ne=5;", b"a=1%3Bb=2\nc=3%3Bd\n\ne=5%3B"),
    (b";;;\n;", b"%3B%3B%3B\n%3B"),
    (b"a=1&b=2\nc=3\n", b"a=1&b=2\nc=3\n"),
])
def test_a_streamed_body_reads_as_the_server_stream_would(reader, body, expected):
    app = Recorder(lambda stream: list(READERS[reader](stream)))
    protect(app)(chunked_environ(body), None)
    assert app.body == list(READERS[reader](io.BytesIO(expected)))


def test_a_streamed_body_that_ends_early_ends_the_stream():
    app = Recorder(lambda stream: list(iter(lambda: stream.read(100), b"")))
    protect(app)(chunked_environ(None, stream=Trickle(BODY)), None)
    assert b"".join(app.body) == FIXED


@pytest.mark.parametrize("content_type, rewritten", [
    (URLENCODED, True), (None, True),  # cgi.FieldStorage reads both as forms
    ("text/plain", False), ("multipart/form-data; boundary=x", False),
])
def test_without_length_or_framing_a_form_stream_is_rewritten_as_read(content_type, rewritten):
    # HTTP gives such a request no body, but wsgiref hands the connection on,
    # and cgi.FieldStorage without a length reads it until the client closes.
    app = Recorder(lambda stream: stream.read())
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/form", "QUERY_STRING": "",
               "wsgi.input": io.BytesIO(BODY), "CONTENT_LENGTH": ""}  # PEP 3333: or absent
    if content_type is not None:
        environ["CONTENT_TYPE"] = content_type
    protect(app)(environ, None)
    assert app.body == (FIXED if rewritten else BODY)
    assert app.environ["CONTENT_LENGTH"] == "" and ORIGINAL_BODY not in app.environ


def test_a_get_without_length_keeps_the_servers_stream():
    app, stream = Recorder(), io.BytesIO(BODY)
    protect(app)({"REQUEST_METHOD": "GET", "QUERY_STRING": "", "wsgi.input": stream}, None)
    assert app.environ["wsgi.input"] is stream and stream.tell() == 0
