"""The rule both ``protect()`` middlewares share: labels, charsets, framing, codings.

Each case is a request an attacker writes (or an honest client sends) and
what the application behind gets: the body rewritten, byte for byte, or a
refusal. The WSGI half runs everywhere, the ASGI half on Python 3. The
frameworks' own view of the crafted requests is in test_wsgi_crafted.py and
the HTTP tests; this pins the rule itself, on both middlewares at once
(content codings: test_protect_codings.py).
"""

import logging
import sys

import pytest

from budget import stride
from internals import charsets
from protect_requests import BODY, FIXED, URLENCODED, asgi, wsgi
from urllib_parse_backport.wsgi import ORIGINAL_BODY

PY2 = sys.version_info[0] == 2

pytestmark = pytest.mark.usefixtures("no_label_blind_parser")


# --- charsets ----------------------------------------------------------------------

#: Codecs that write a separator other than as its ASCII byte, each with a
#: body that decodes to one: Django decodes the body (and the query) with the
#: request's charset before it splits.
SPELLING_CODECS = ["utf-7", "UTF-7", "utf-16", "utf-16-le", "UTF-32", "cp037", "cp500",
                   "unicode_escape", "raw_unicode_escape", "punycode", "idna"]


@pytest.mark.parametrize("codec", SPELLING_CODECS)
@pytest.mark.parametrize("written", ["; charset=%s", "; CHARSET=\"%s\"", ";charset = %s ",
                                     "; charset=utf-8; charset=%s", "; charset=%s; charset=utf-8",
                                     "; charset*=utf-8''%s"])
def test_a_form_in_a_charset_that_can_spell_a_separator_is_refused(codec, written, caplog):
    caplog.set_level(logging.WARNING, logger="urllib_parse_backport")
    content_type = URLENCODED + written % (codec,)
    status, answer, _ = wsgi(BODY, content_type)
    assert status == "400 Bad Request" and b"charset" in answer
    assert "refused with 400" in caplog.text and "charset" in caplog.text
    assert asgi(BODY, [content_type.encode("latin-1")])[0] == 400


def test_the_rfc_2231_spelling_is_read_percent_decoded():
    # Django 4+ decodes charset*=utf-8''utf%2D7 to utf-7.
    assert wsgi(BODY, URLENCODED + "; charset*=utf-8''utf%2D7")[0] == "400 Bad Request"


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("charset, query", [
    ("utf-7", "q=common_term&u=x+ACY-q=malicious_term"),   # '+ACY-' is '&'
    ("utf,7", "q=common_term&u=x+ADs-q=malicious_term"),   # the lookup reads utf_7
    ('"utf;7"', "q=common_term&u=x+AD0-malicious_term"),   # '+AD0-' is '='
])
def test_a_query_that_its_charset_decodes_to_other_fields_is_refused(method, charset, query):
    # Django's WSGI handler decodes the query with the request's charset, then
    # splits; under ASGI too, where it may run behind an ASGI-to-WSGI adapter
    # (its ASGI handler does not decode the query).
    status, _, _ = wsgi(None, "text/plain; charset=" + charset, method=method, query=query)
    assert status == "400 Bad Request"
    assert asgi(None, [b"text/plain; charset=" + charset.encode("ascii")], method=method,
                query=query.encode("ascii"))[0] == 400


@pytest.mark.parametrize("query", ["id=5", "a"])
def test_a_query_that_decodes_to_no_separator_passes(query):
    # UTF-16 JSON with ?id=5: Django decodes the query to two CJK characters,
    # no '&', ';' or '=': nothing to smuggle.
    body = u'{"a": 1}'.encode("utf-16")
    status, got, _ = wsgi(body, "application/json; charset=utf-16", query=query)
    assert (status, got) == (None, body)


@pytest.mark.parametrize("content_type", [
    "text/plain; charset*0=utf-; charset*1=7",         # email (Django 4+) joins them
    "text/plain; CHARSET*0*=utf-8''utf%2D; charset*1=7",
])
def test_a_charset_in_rfc_2231_continuations_is_refused(content_type):
    assert wsgi(None, content_type, query="a=1")[0] == "400 Bad Request"
    assert wsgi(b"a=1", URLENCODED + "; " + content_type.split("; ", 1)[1])[0] == \
        "400 Bad Request"


def test_repeated_headers_are_read_joined_as_django_asgi_joins_them():
    labels = [(URLENCODED + "; charset=utf").encode("ascii"), b"7"]
    assert asgi(BODY, labels)[0] == 400


def test_a_body_that_is_nobodys_form_keeps_its_charset():
    # UTF-16 JSON, with no query: no parser splits it, nothing to refuse.
    body = u'{"a": "b;c"}'.encode("utf-16")
    status, got, _ = wsgi(body, "application/json; charset=utf-16")
    assert (status, got) == (None, body)
    assert asgi(body, [b"application/json; charset=utf-16"]) == (None, body)


@pytest.mark.parametrize("charset", ["utf-8", "latin-1", "iso-8859-15", "windows-1252",
                                     "shift_jis", "gb18030", "no-such-codec", "TIS-620",
                                     "ISO-2022-JP", "cp858", "hp-roman8", '"euc-kr"', "HZ-GB-2312"])
def test_an_ascii_transparent_or_unknown_charset_leaves_the_form_to_the_rewrite(charset):
    status, got, _ = wsgi(BODY, URLENCODED + "; charset=" + charset)
    assert (status, got) == (None, FIXED)


#: The escape sequences of the stateful codecs: each switches to a set whose
#: two-byte sequences must not decode to ASCII either.
ESCAPES = [b"", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b$@", b"\x1b$B", b"\x1b$A",
           b"\x1b$(C", b"\x1b$(D", b"\x1b$(O", b"\x1b$(P", b"\x1b$(Q", b"\x1b.A", b"\x1b.F",
           b"\x1b$)C\x0e", b"~{"]


#: The codecs are the interpreter's C code, the same from 3.6 to 3.13: every first
#: byte on the thorough interpreters, one in eight elsewhere (tests/helpers/budget.py;
#: about 17 s an environment, whole).
_FIRST_BYTES = stride(range(256))


@pytest.mark.parametrize("name", sorted(charsets.ASCII_SAFE_MULTIBYTE))
def test_each_multibyte_codec_called_safe_writes_separators_only_as_their_bytes(name):
    # Every sequence of one and two bytes (of the first bytes above), after each
    # escape a stateful codec knows: a separator in the text must come from its own
    # byte (a multi-byte sequence never decodes to ASCII). This is the reasoning
    # behind the set.
    stateful = name.startswith(("iso2022", "hz"))
    for escape in ESCAPES if stateful else [b""]:
        for first in _FIRST_BYTES:
            seconds = range(256) if first >= 0x80 or stateful else [None]
            for second in seconds:
                data = escape + bytes(bytearray([first] if second is None else [first, second]))
                try:
                    text = data.decode(name)
                except UnicodeDecodeError:
                    continue
                for char in charsets.SEPARATORS:
                    assert text.count(char) <= data.count(char.encode("ascii")), (name, data)


def test_each_single_byte_codec_is_judged_by_its_own_table():
    # Decoding each of the 256 bytes: the verdict the module derives from the
    # codec's table is what decoding finds, for every table codec shipped.
    import encodings
    import pkgutil
    judged = 0
    for _, module, _ in pkgutil.iter_modules(encodings.__path__):
        if charsets.codec_module(module) != module or module in charsets.ASCII_SAFE_MULTIBYTE:
            continue
        codec = __import__("encodings." + module, fromlist=["x"])
        if not hasattr(codec, "decoding_table") and not hasattr(codec, "decoding_map"):
            continue
        spelt = set()
        for byte in range(256):
            try:
                text = bytes(bytearray([byte])).decode(module)
            except UnicodeDecodeError:
                continue
            if text in charsets.SEPARATORS and ord(text) != byte:
                spelt.add(text)
        assert (module in charsets.unsafe_charsets(["text/plain; charset=" + module])) \
            == bool(spelt), (module, spelt)
        judged += 1
    assert judged > 50


# --- labels ------------------------------------------------------------------------

@pytest.mark.parametrize("content_type, multipart", [
    # CherryPy splits on commas outside quotes, sorts, takes the greatest.
    ("MULTIPART/x, application/x-www-form-urlencoded", False),
    ("multipart/form-data, Application/X-WWW-Form-Urlencoded", False),
    # A multipart body whose boundary holds a quoted comma is one element.
    ('multipart/form-data; boundary="a,b"', True),
    ("multipart/form-data; boundary=x, multipart/mixed", True),
    # Anything else in the list (even nothing): not multipart for CherryPy.
    ("multipart/form-data, text/plain", False),
    ("multipart/form-data,", False),
    ("", False),  # blank: CherryPy's default is urlencoded
    # RFC 2047: CherryPy decodes the encoded-word, then reads the label.
    ("=?utf-8?b?YXBwbGljYXRpb24veC13d3ctZm9ybS11cmxlbmNvZGVk?=", False),
])
def test_a_content_type_list_is_multipart_only_when_every_element_is(
        content_type, multipart, label_blind_parser):
    # With a label-blind parser loaded, "not multipart" is a form: the list
    # decides between read-and-rewritten and not read at all.
    status, got, environ = wsgi(BODY, content_type)
    assert got == (BODY if multipart else FIXED)
    assert (ORIGINAL_BODY in environ) == (not multipart)


@pytest.mark.parametrize("content_type", ["multipart/form-data, text/plain", "text/css",
                                          "text/plain;charset=UTF-8"])
def test_without_a_label_blind_parser_a_list_without_a_form_is_untouched(content_type):
    status, got, environ = wsgi(BODY, content_type)
    assert (status, got) == (None, BODY) and ORIGINAL_BODY not in environ
    assert asgi(BODY, [content_type.encode("ascii")]) == (None, BODY)


# --- framing -------------------------------------------------------------------------

@pytest.mark.parametrize("length", ["0", "44", "3"])
@pytest.mark.parametrize("content_type", [URLENCODED, None])
def test_a_form_with_both_a_length_and_a_transfer_coding_is_refused(length, content_type):
    # Servers follow the coding (uvicorn, hypercorn, gunicorn 20), and a rewrite
    # that trusted the length (0: nothing) would hand the body on unread.
    status, answer, _ = wsgi(BODY, content_type, CONTENT_LENGTH=length,
                             HTTP_TRANSFER_ENCODING="chunked", wsgi_input_terminated=True)
    assert status == "400 Bad Request" and b"Transfer-Encoding" in answer
    labels = [content_type.encode("ascii")] if content_type else []
    assert asgi(BODY, labels, headers=[(b"content-length", length.encode("ascii")),
                                       (b"transfer-encoding", b"chunked")])[0] == 400


def test_a_body_of_nobodys_form_with_both_is_left_to_the_server():
    status, got, _ = wsgi(BODY, "text/plain", CONTENT_LENGTH="0", HTTP_TRANSFER_ENCODING="chunked",
                          wsgi_input_terminated=True)
    assert (status, got) == (None, BODY)


def test_what_follows_the_last_chunk_is_rewritten_too():
    # wsgiref hands the connection on; cgi.FieldStorage reads it to its end.
    framed = b"%x\r\n%s\r\n0\r\n\r\n;q=malicious_term" % (len(BODY), BODY)
    status, got, _ = wsgi(framed, URLENCODED, CONTENT_LENGTH=None,
                          HTTP_TRANSFER_ENCODING="chunked")
    assert status is None and b";" not in got
    assert got.endswith(b"\r\n0\r\n\r\n%3Bq=malicious_term")


@pytest.mark.parametrize("content_type", [
    "=?utf-8?b?YXBwbGljYXRpb24veC13d3ctZm9ybS11cmxlbmNvZGVk?=",
    "=?us-ascii?q?application/x-www-form-urlencode=64?=",
])
def test_an_encoded_word_label_is_a_form(content_type):
    # CherryPy decodes RFC 2047 encoded-words in every header before it reads
    # the label: whatever the word spells, the body is rewritten.
    assert wsgi(BODY, content_type)[:2] == (None, FIXED)
    assert asgi(BODY, [content_type.encode("ascii")]) == (None, FIXED)


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_an_unlabelled_get_body_is_a_form_while_bottle_is_loaded(method, label_blind_parser):
    # Bottle 0.12.18's request.forms reads the body of any method.
    assert wsgi(BODY, None, method=method)[:2] == (None, FIXED)


def test_an_unlabelled_get_body_is_untouched_otherwise():
    assert wsgi(BODY, None, method="GET")[:2] == (None, BODY)


# --- a second attacker's round ---------------------------------------------------------

@pytest.mark.parametrize("content_type", [
    "text/plain; charset=utf-16; charset=utf-7",      # Django keeps the last one
    "text/plain; charset=\"utf" + ";" * 17 + "7\"; x=y",  # quoted: cgi keeps it whole
    "text/plain; charset=utf" + "," * 40 + "7",
    "text/plain; charset*=utf-16le''u%00t%00f%00-%007%00",  # email decodes it as utf-16le
    "text/plain; charset*=utf-16''%FF%FEu%00t%00f%00-%007%00",
])
def test_every_reading_of_the_charset_counts_for_the_query(content_type):
    status, _, _ = wsgi(None, content_type, method="GET",
                        query="q=common_term&utm_content=s+ACY-q=malicious_term")
    assert status == "400 Bad Request"


def test_a_quoted_charset_with_many_separators_refuses_a_form():
    content_type = URLENCODED + "; charset=\"utf" + ";" * 17 + "7\"; x=y"
    assert wsgi(b"q=common_term&utm_content=s+ACY-q=malicious_term", content_type)[0] == \
        "400 Bad Request"
    assert asgi(BODY, [content_type.encode("ascii")])[0] == 400


def test_a_chunk_extension_never_brings_a_semicolon_to_the_app():
    # wsgiref passes the framing on; cgi.FieldStorage reads it raw, extensions and all.
    framed = b"1b;q=malicious_term&x=\r\nq=common_term&utm_content=s\r\n0;a=b;c=d\r\n\r\n"
    status, got, _ = wsgi(framed, URLENCODED, CONTENT_LENGTH=None,
                          HTTP_TRANSFER_ENCODING="chunked")
    assert status is None and b";" not in got
    assert got.startswith(b"1b\r\nq=common_term&utm_content=s\r\n0\r\n")


def test_twisted_headers_count_too():
    # Twisted passes HTTP_CONTENT_TYPE (every value, joined) and
    # HTTP_CONTENT_LENGTH beside CONTENT_TYPE; CherryPy reads those first.
    status, got, environ = wsgi(BODY, "application/json",
                                HTTP_CONTENT_TYPE="application/x-www-form-urlencoded, "
                                                  "application/json",
                                HTTP_CONTENT_LENGTH=str(len(BODY)))
    assert (status, got) == (None, FIXED)
    assert environ["HTTP_CONTENT_LENGTH"] == environ["CONTENT_LENGTH"] == str(len(FIXED))


def test_a_vendored_bottle_counts_as_label_blind(monkeypatch):
    import types
    from label_blind import _parse_qsl
    module = types.ModuleType("myproject._vendor.bottle")
    module._parse_qsl = _parse_qsl
    monkeypatch.setitem(sys.modules, "myproject._vendor.bottle", module)
    assert wsgi(BODY, "text/plain")[:2] == (None, FIXED)
    module._parse_qsl = lambda qs: [tuple(p.split("=", 1)) for p in qs.split("&")]
    assert wsgi(BODY, "text/plain")[:2] == (None, BODY)  # fixed: counts for nothing


def test_a_parser_whose_code_is_swapped_back_counts_again(label_blind_parser):
    # The Bottle adapter swaps the code in place, and unpatch() swaps it back.
    function = label_blind_parser._parse_qsl
    assert wsgi(BODY, "text/plain")[:2] == (None, FIXED)
    original = function.__code__
    function.__code__ = (lambda qs: [tuple(p.split("=", 1)) for p in qs.split("&")]).__code__
    assert wsgi(BODY, "text/plain")[:2] == (None, BODY)
    function.__code__ = original
    assert wsgi(BODY, "text/plain")[:2] == (None, FIXED)


# --- a third attacker's round: WSGI applications behind an ASGI-to-WSGI adapter -------

@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_asgi_an_unlabelled_get_body_is_a_form_while_bottle_is_loaded(
        method, label_blind_parser):
    # Bottle 0.12.18 behind asgiref's WsgiToAsgi or Starlette's WSGIMiddleware
    # reads the body of any method, as under a WSGI server.
    assert asgi(BODY, method=method) == (None, FIXED)


def test_asgi_an_unlabelled_get_body_is_untouched_otherwise():
    assert asgi(BODY, method="GET") == (None, BODY)


@pytest.mark.parametrize("name", [b"content_type", b"Content_Type", b"CONTENT_TYPE"])
def test_asgi_an_underscore_content_type_counts(name):
    # The adapters make HTTP_CONTENT_TYPE of "content_type" (h11 accepts the
    # name), and CherryPy reads that one over CONTENT_TYPE.
    assert asgi(BODY, [b"text/plain"], headers=[(name, URLENCODED.encode("ascii"))]) \
        == (None, FIXED)


def test_asgi_an_underscore_length_is_rewritten_with_the_body():
    if PY2:
        pytest.skip("ASGI is Python 3 only")
    from asgi_apps import recorder, run
    from urllib_parse_backport.asgi import protect as asgi_protect
    length = b"%d" % len(BODY)
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "path": "/", "query_string": b"",
             "headers": [(b"content-type", URLENCODED.encode("ascii")),
                         (b"content-length", length), (b"content_length", length)]}
    seen = []
    run(asgi_protect(recorder(seen)), scope, [{"type": "http.request", "body": BODY}])
    fixed = b"%d" % len(FIXED)
    assert dict(seen[0][0]["headers"])[b"content_length"] == fixed


def test_asgi_two_different_lengths_refuse_a_form():
    status, _ = asgi(BODY, [URLENCODED.encode("ascii")],
                     headers=[(b"content-length", b"%d" % len(BODY)), (b"content_length", b"3")])
    assert status == 400


@pytest.mark.parametrize("query", [b"q=common&utm=x+ADs-q=malicious",
                                   b"q=common+ACY-q=malicious"])
def test_asgi_a_query_its_charset_decodes_to_other_fields_is_refused(query):
    # Django's WSGI handler behind an adapter decodes the query with the
    # request's charset before it splits, as under a WSGI server.
    status, _ = asgi(None, [b"text/plain; charset=utf-7"], method="GET", query=query)
    assert status == 400
    assert wsgi(None, "text/plain; charset=utf-7", method="GET",
                query=query.decode("ascii"))[0].startswith("400")
