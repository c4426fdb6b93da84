"""``wsgi.protect``: urlencoded bodies (``wsgi.input`` and ``CONTENT_LENGTH``).

Which bodies are rewritten, which are left exactly as the server gave them
(and which of those are logged), and that the replacement stream reads as a
server's stream does: ``read()``, ``read(n)``, ``readline()``, ``readlines()``
and iteration (PEP 3333).
"""

import io
import logging
import warnings

import pytest

from fresh_interpreter import ATTACK

from urllib_parse_backport import QuerySeparatorWarning, read_environment
from urllib_parse_backport.wsgi import ORIGINAL_BODY, protect

BODY = ATTACK.encode("ascii")
FIXED = b"q=common_term&utm_content=s%3Bq=malicious_term"
URLENCODED = "application/x-www-form-urlencoded"


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
    protect(app, **options)(environ, None)
    return app


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
    "multipart/form-data; boundary=xyz", "text/plain", "application/json",
    "application/x-www-form-urlencodedx", "", None,
])
def test_other_bodies_are_untouched(content_type, log):
    app = post(BODY, content_type, app=Recorder())
    assert untouched(app, BODY)
    assert log.records == []


@pytest.mark.parametrize("length", ["", "0", "-3", "abc"])
def test_bodies_without_a_usable_length_are_untouched(length, log):
    app = post(BODY, length=length, app=Recorder())
    assert untouched(app, BODY, length)
    assert log.records == []


def test_a_body_over_the_limit_is_untouched_and_logged_once(log):
    app = post(BODY, max_body_size=len(BODY) - 1)
    assert app.body == BODY
    assert untouched(app, BODY)
    assert len(log.records) == 1
    message = log.records[0].getMessage()
    assert "POST '/form'" in message and "over max_body_size=%d" % (len(BODY) - 1) in message


def test_the_limit_is_inclusive_and_none_means_no_limit(log):
    assert post(BODY, max_body_size=len(BODY)).body == FIXED
    assert post(BODY * 1000, max_body_size=None).body == FIXED * 1000
    assert log.records == []


def test_zero_limit_rewrites_no_body(log):
    assert post(BODY, max_body_size=0).body == BODY
    assert len(log.records) == 1


def test_a_chunked_body_is_untouched_and_logged(log):
    app = Recorder()
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": URLENCODED,
               "HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": io.BytesIO(BODY),
               "wsgi.input_terminated": True}
    stream = environ["wsgi.input"]
    protect(app)(environ, None)
    assert app.environ["wsgi.input"] is stream and stream.tell() == 0
    assert "CONTENT_LENGTH" not in app.environ
    assert len(log.records) == 1 and "no Content-Length: chunked" in log.records[0].getMessage()


@pytest.mark.parametrize("charset", ["utf-16", "UTF-16LE", "utf-32", "cp500"])
def test_a_charset_that_is_not_ascii_compatible_is_untouched_and_logged(charset, log):
    body = ATTACK.encode(charset)
    app = post(body, URLENCODED + "; charset=" + charset, app=Recorder())
    assert untouched(app, body)
    assert len(log.records) == 1 and "not ASCII-compatible" in log.records[0].getMessage()


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


def test_a_body_shorter_than_its_length_stays_as_short():
    # The client sent 10 bytes fewer than announced: so does the new stream.
    app = Recorder(lambda stream: stream.read())
    environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": URLENCODED,
               "CONTENT_LENGTH": str(len(BODY) + 10), "wsgi.input": Trickle(BODY)}
    protect(app)(environ, None)
    assert app.body == FIXED
    assert app.environ["CONTENT_LENGTH"] == str(len(FIXED) + 10)


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
