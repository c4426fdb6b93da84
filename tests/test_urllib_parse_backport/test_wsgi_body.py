"""``wsgi.protect``: urlencoded bodies (``wsgi.input`` and ``CONTENT_LENGTH``).

Which bodies are rewritten, which are left exactly as the server gave them
(and which of those are logged). Bodies without a length are in
test_wsgi_body_chunked.py, how the new stream reads in test_wsgi_body_stream.py.
Every test runs without a label-blind parser loaded unless it asks for one
(``label_blind_parser``).
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


def bottle_request(memfile_max):
    """A stand-in for ``bottle.BaseRequest`` with Bottle's own body bound."""
    return type("BaseRequest", (object,), {"MEMFILE_MAX": memfile_max})


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
    # Only Bottle 0.12 parses it as a form, and refuses it over its MEMFILE_MAX
    # (100 KiB; here 10 bytes: one it would read is refused, test_attack_round4);
    # a large compact JSON document has no spaces either.
    label_blind_parser.BaseRequest = bottle_request(10)
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


@pytest.mark.parametrize("charset", [
    "utf-8", "UTF-8", "latin-1", '"iso-8859-1"', "windows-1252", "shift_jis",
    "no-such-charset",  # Django ignores a charset Python does not know
])
def test_an_ascii_transparent_charset_leaves_the_rewrite_to_apply(charset, log):
    app = post(BODY, URLENCODED + "; charset=" + charset)
    assert app.body == FIXED
    assert log.records == []
