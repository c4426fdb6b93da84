"""``wsgi.protect``: the replacement stream reads as a server's stream does:
short reads, a body shorter than its length, ``read()``, ``read(n)``,
``readline()``, ``readlines()`` and iteration (PEP 3333).
"""

import io

import pytest

from urllib_parse_backport.wsgi import ORIGINAL_BODY, protect
from test_wsgi_body import BODY, FIXED, URLENCODED, Recorder, post
from test_wsgi_body_chunked import chunked_environ

pytestmark = pytest.mark.usefixtures("no_label_blind_parser")


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
