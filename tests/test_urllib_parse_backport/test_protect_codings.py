"""The rule both ``protect()`` middlewares share, for a body in a content coding.

Rewriting coded bytes would break them, and passed on unread a parser that
does not decode them splits them on ';': a coded form whose bytes, coded or
decoded, hold no separator reaches the application byte for byte, one that
holds one is handed on decoded and rewritten, without its Content-Encoding,
and one that cannot be decoded is refused, on both middlewares at once.
"""

import zlib

import pytest

from protect_requests import BODY, FIXED, URLENCODED, asgi, gzipped, wsgi

pytestmark = pytest.mark.usefixtures("no_label_blind_parser")


def honest_gzip_form():
    """A gzip-encoded form whose compressed bytes hold no ';' (a browser form has none)."""
    for n in range(1000):
        data = gzipped(b"q=common_term&page=%d&note=caf%%C3%%A9" % n)
        if b";" not in data:
            return data
    raise AssertionError("no such body")


@pytest.mark.parametrize("coding", ["gzip", "x-gzip", "GZIP"])
def test_an_honest_encoded_form_reaches_the_app_byte_for_byte(coding):
    body = honest_gzip_form()
    status, got, environ = wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING=coding)
    assert (status, got, environ["CONTENT_LENGTH"]) == (None, body, str(len(body)))
    assert asgi(body, [URLENCODED.encode("ascii")],
                headers=[(b"content-encoding", coding.encode("ascii"))]) == (None, body)


@pytest.mark.parametrize("body, coding", [
    (BODY, "gzip"),                                           # not gzip at all
    (BODY, "deflate"),                                        # neither zlib nor raw deflate
    (b"q=common_term", "br"),                                 # a coding no one here decodes
    (b"q=common_term", "gzip, gzip"),
])
def test_an_encoded_form_that_cannot_be_decoded_is_refused(body, coding):
    # Rewriting coded bytes would break them; passed on unread, a parser that
    # does not decode them (none of the frameworks does) splits them on ';'.
    status, answer, _ = wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING=coding)
    assert status == "415 Unsupported Media Type" and b"Content-Encoding" in answer
    assert asgi(body, [URLENCODED.encode("ascii")],
                headers=[(b"content-encoding", coding.encode("ascii"))])[0] == 415


@pytest.mark.parametrize("body, decoded, coding", [
    (gzipped(BODY), FIXED, "gzip"),                             # decodes to a ';'
    (gzipped(b"q=common_term", name=b";q=malicious_term;"), b"q=common_term",
     "gzip"),                                                   # ';' in the header
    (zlib.compress(BODY), FIXED, "deflate"),
])
def test_an_encoded_form_that_holds_a_separator_is_handed_on_decoded(body, decoded, coding):
    # Decoded, rewritten like any form, without its Content-Encoding.
    status, got, environ = wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING=coding)
    assert (status, got, environ["CONTENT_LENGTH"]) == (None, decoded, str(len(decoded)))
    assert "HTTP_CONTENT_ENCODING" not in environ
    assert asgi(body, [URLENCODED.encode("ascii")],
                headers=[(b"content-encoding", coding.encode("ascii"))]) == (None, decoded)


def test_an_identity_coding_is_no_coding():
    assert wsgi(BODY, URLENCODED, HTTP_CONTENT_ENCODING="identity")[:2] == (None, FIXED)


def test_a_chunked_encoded_form_is_checked_as_a_whole():
    body = honest_gzip_form()
    status, got, _ = wsgi(body, URLENCODED, CONTENT_LENGTH=None, HTTP_TRANSFER_ENCODING="chunked",
                          HTTP_CONTENT_ENCODING="gzip", wsgi_input_terminated=True)
    assert (status, got) == (None, body)
    status, got, environ = wsgi(gzipped(BODY), URLENCODED, CONTENT_LENGTH=None,
                                HTTP_TRANSFER_ENCODING="chunked", HTTP_CONTENT_ENCODING="gzip",
                                wsgi_input_terminated=True)
    assert (status, got) == (None, FIXED) and "HTTP_CONTENT_ENCODING" not in environ


def test_a_bomb_decoding_past_the_limit_is_refused():
    body = gzipped(b"a" * (3 * 1024 * 1024))  # 3 MiB of 'a': a few KiB gzipped
    assert b";" not in body
    assert wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING="gzip")[0] == "413 Payload Too Large"
    assert asgi(body, [URLENCODED.encode("ascii")],
                headers=[(b"content-encoding", b"gzip")])[0] == 413
