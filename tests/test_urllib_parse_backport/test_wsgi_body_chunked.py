"""``wsgi.protect``: bodies without a Content-Length: de-chunked by the server
(``wsgi.input_terminated``), still framed in chunks, or ended by the stream;
each rewritten as the application reads it, never read past its end.
"""

import io
import warnings

import pytest

from wsgi_apps import dechunk, frame_chunks

from urllib_parse_backport import QuerySeparatorWarning, read_environment
from urllib_parse_backport.wsgi import ORIGINAL_BODY, protect
from test_wsgi_body import (BODY, FIXED, NOT_FORMS, URLENCODED, Recorder, bottle_request,
                            refusal, refused)

pytestmark = pytest.mark.usefixtures("no_label_blind_parser")


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
    label_blind_parser.BaseRequest = bottle_request(len(BODY))  # Bottle refuses it itself
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
