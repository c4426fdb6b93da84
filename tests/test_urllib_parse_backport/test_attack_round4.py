"""A fourth attacker's round on ``protect()``: classes the earlier rounds left open.

Each test is a request an attacker writes, shown failing on the code before
its fix: a cost (the work compared with a cheap request inside one run,
never a wall-clock budget) or a request ``protect()`` could not answer.
"""

import bz2
import logging
import struct
import sys
import zlib

import pytest

from protect_requests import BODY, FIXED, URLENCODED, asgi, gzipped, wsgi
from work import growth

PY2 = sys.version_info[0] == 2


pytestmark = pytest.mark.usefixtures("no_label_blind_parser")


# --- the query decoded with the charset a client names ----------------------------------

# Queries that cost the decoder of an unsafe codec much more than their length:
# punycode's decoder is pure Python and inserts each character into a copy of
# the text (quadratic); 2.7's ``zlib`` and ``bz2`` codecs decompress (a
# 113-byte bz2 query decodes to 100 MB). Each is sent with
# ``text/plain; charset=...`` on a GET, so no form decides the request first.

def punycode_query(n):
    return "-" + "a" * n


def bz2_query(n):
    return bz2.compress(b"\0" * (n * 400)).decode("latin-1")


def zlib_query(n):
    return zlib.compress(b"\0" * (n * 200), 9).decode("latin-1")


@pytest.mark.parametrize("charset, make, n", [
    ("punycode", punycode_query, 16000),
    ("idna", punycode_query, 16000),
    ("bz2", bz2_query, 20000),
    ("zlib", zlib_query, 20000),
])
def test_a_query_is_never_decoded_at_a_cost_out_of_proportion(charset, make, n):
    # Measured before the fix, n = 16000: punycode 10 ms (3.13) to 22 ms
    # (2.7), 64 kB: 73 ms to 0.7 s; 2.7's bz2: 2 s and 500 MB for 113 bytes.
    # UTF-16 is the yardstick: an unsafe codec whose decoder is one C pass.
    query = make(n)

    def request(name):
        return lambda: wsgi(None, "text/plain; charset=" + name, method="GET", query=query)
    crafted, yardstick = request(charset), request("utf-16")
    ratio = growth(yardstick, crafted, tries=3)
    assert ratio < 8, "decoding the query as %s cost %.0fx UTF-16's" % (charset, ratio)


@pytest.mark.parametrize("charset", ["punycode", "idna"])
def test_a_query_in_a_costly_codec_is_refused_unread(charset):
    # Django would decode it with the charset before it splits, so a codec that
    # can write a separator and is not read here cannot be let through.
    query = "q=common_term&utm_content=x"
    assert wsgi(None, "text/plain; charset=" + charset, method="GET",
                query=query)[0] == "400 Bad Request"
    assert asgi(None, [b"text/plain; charset=" + charset.encode("ascii")], method="GET",
                query=query.encode("ascii"))[0] == 400


def test_a_query_in_utf_16_is_still_read():
    # The honest case the decode is there for: UTF-16 JSON with ?id=5.
    body = u'{"a": 1}'.encode("utf-16")
    assert wsgi(body, "application/json; charset=utf-16", query="id=5")[:2] == (None, body)


# --- a codec module that cannot be imported on this platform ------------------------------

@pytest.mark.parametrize("content_type", [URLENCODED + "; charset=cp65001",
                                          "text/plain; charset=CP65001"])
def test_a_windows_only_codec_name_is_no_codec(content_type):
    # 3.6 and 3.7 ship encodings/cp65001.py, which raises LookupError (not
    # ImportError) when imported elsewhere than on Windows: protect() raised
    # it for every such request (a 500 and a traceback each), where Django
    # finds no such codec and keeps UTF-8.
    status, got, _ = wsgi(BODY, content_type)
    assert status is None and got == (FIXED if "urlencoded" in content_type else BODY)
    assert asgi(BODY, [content_type.encode("ascii")])[0] is None


# --- a chunked form whose framing the server leaves in the stream (wsgiref) --------------

def framed_form(sizes, fill=b"a"):
    """A chunked form body of chunks of *sizes* bytes of *fill*, repeated or cut,
    its last-chunk line and the end of the trailers."""
    return b"".join(b"%x\r\n%s\r\n" % (size, (fill * size)[:size]) for size in sizes) \
        + b"0\r\n\r\n"


def framed_request(data):
    return lambda: wsgi(data, URLENCODED, CONTENT_LENGTH=None, HTTP_TRANSFER_ENCODING="chunked")


def python_calls(call):
    """How many Python functions *call* runs (a count, the same on any machine)."""
    count = [0]

    def profile(frame, event, arg):
        if event == "call":
            count[0] += 1
    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return count[0]


def test_a_form_of_many_tiny_chunks_costs_what_one_chunk_costs():
    # wsgiref hands on the chunked framing; protect() de-chunked it in Python,
    # chunk by chunk: 2.5 MiB of one-byte chunks (437,000) cost it 0.27 s of
    # CPU on 3.13, 0.56 s on 2.7, where an application that does not read
    # the body (Django and Flask under wsgiref do not) pays nothing. Now its
    # Python work stops at the chunk that makes the form too finely cut: the
    # same calls for n chunks as for 4n (a count, not a CPU time: before, a
    # ratio of CPU times, which a loaded machine pushed over its bound).
    work = []
    for n in (100000, 400000):
        crafted = framed_request(framed_form([1] * n))
        crafted()  # the first call's imports aside
        work.append(python_calls(crafted))
    assert work[1] <= work[0] + 16, "Python calls at n and 4n one-byte chunks: %r" % (work,)
    assert work[0] <= 2 * 1024 + 200, work  # about one a chunk it reads, then it refuses


@pytest.mark.parametrize("fill", [b"a", b";", b"q=common_term&utm_content=x;q=m&"])
def test_a_form_of_many_tiny_chunks_is_refused(fill, caplog):
    caplog.set_level(logging.WARNING, logger="urllib_parse_backport")
    status, answer, _ = framed_request(framed_form([len(fill)] * 5000, fill))()
    assert status == "400 Bad Request" and b"chunks" in answer
    assert "refused with 400" in caplog.text and "chunks" in caplog.text


def test_a_form_of_many_chunks_an_encoder_writes_is_read():
    # 1024 chunks of any size, or more averaging 1024 bytes or more: rewritten,
    # framed anew as one chunk.
    for sizes in ([1] * 1024, [1024] * 2000):
        data = framed_form(sizes, b";")
        status, got, environ = framed_request(data)()
        body = b";" * sum(sizes)
        assert status is None and environ["urllib_parse_backport.original_body"] == body
        assert got == b"%x\r\n%s\r\n0\r\n\r\n" % (3 * len(body), b"%3B" * len(body))


def test_a_form_of_chunks_with_long_extensions_is_bounded_by_the_body_limit():
    # Each chunk line may carry 64 kB of extension: what protect() holds while
    # it reads the framing is bounded by max_body_size, not by the chunk count.
    line = b"1;" + b"x" * 60000 + b"\r\na\r\n"
    status, got, _ = wsgi(line * 60 + b"0\r\n\r\n", URLENCODED, CONTENT_LENGTH=None,
                          HTTP_TRANSFER_ENCODING="chunked", limits={"max_body_size": 1000000})
    assert status == "413 Payload Too Large"


# --- a content coding named in more than one header (ASGI) -------------------------------

@pytest.mark.parametrize("names", [(b"content-encoding", b"content-encoding"),
                                   (b"content-encoding", b"content_encoding")])
def test_asgi_every_content_encoding_counts(names):
    # Django's ASGI handler and the ASGI-to-WSGI adapters join repeated headers
    # (HTTP_CONTENT_ENCODING "gzip,identity"), as WSGI servers do; asgi.protect
    # read the last one only, took the body for an identity-coded form, found
    # no ';' in its gzip bytes and passed it on: decoded by what reads the
    # first coding, it is q=common_term&utm_content=s;q=malicious_term.
    body = gzipped(BODY)
    assert b";" not in body and zlib.decompress(body, 31) == BODY
    headers = [(names[0], b"gzip"), (names[1], b"identity")]
    assert asgi(body, [URLENCODED.encode("ascii")], headers=headers)[0] == 415
    # What WSGI servers hand on for the same request:
    assert wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING="gzip,identity")[0] == \
        "415 Unsupported Media Type"


# --- reading a body protect() read ahead, a line at a time --------------------------------

def readline_request(n, size=1024):
    """A wsgiref chunked text/plain body of *n* bytes and no newline, which a
    label-blind parser makes a form, read by the application with
    ``readline(size)`` (``cgi.FieldStorage`` reads a body without a length
    so, 64 KiB at a time; a line reader may ask for less)."""
    import io
    from urllib_parse_backport.wsgi import protect
    data = b"%x\r\n%s\r\n0\r\n\r\n" % (n, b"a" * n)

    def app(environ, start_response):
        stream = environ["wsgi.input"]
        while stream.readline(size):
            pass
        return []

    def request():
        environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/", "QUERY_STRING": "",
                   "CONTENT_TYPE": "text/plain", "HTTP_TRANSFER_ENCODING": "chunked",
                   "wsgi.input": io.BytesIO(data)}
        protect(app, label_blind=True)(environ, None)
    return request


def test_reading_a_body_read_ahead_line_by_line_costs_linear_work():
    # Input.readline() looked for the next newline to the end of what protect()
    # had read ahead, whatever size was asked: a 1 MiB body without a newline,
    # read 1 kB a line, scanned 512 MB (quadratic).
    # Linear work grows 4x from n to 4n, that scan 16x; the bound sits between,
    # above what PyPy's allocator gave for linear work under load (8.2-8.5x).
    small, large = readline_request(65536), readline_request(4 * 65536)
    ratio = growth(small, large)
    assert ratio < 10, "work grew %.1fx from n to 4n" % ratio


# --- a Content-Type only in a header that is not CONTENT_TYPE ------------------------------

MULTIPART = "multipart/form-data; boundary=x"


def test_wsgi_a_label_only_in_http_content_type_leaves_the_body_unlabelled():
    # gunicorn before 22 passes a header spelt Content_Type as HTTP_CONTENT_TYPE
    # and, with no Content-Type, sets no CONTENT_TYPE. protect() read the
    # multipart label there and passed the body on; cgi.FieldStorage (and
    # WebOb 1.8 through it) reads a POST without CONTENT_TYPE as urlencoded:
    # on 2.7, q=[common_term, malicious_term].
    status, got, environ = wsgi(BODY, None, HTTP_CONTENT_TYPE=MULTIPART)
    assert "CONTENT_TYPE" not in environ
    assert (status, got) == (None, FIXED)
    assert wsgi(BODY, "", HTTP_CONTENT_TYPE=MULTIPART)[:2] == (None, FIXED)


@pytest.mark.parametrize("name", [b"content_type", b"Content-Type", b"CONTENT_TYPE"])
def test_asgi_a_label_in_another_spelling_leaves_the_body_unlabelled(name):
    # a2wsgi, asgiref and Starlette's WSGIMiddleware make CONTENT_TYPE of a
    # header named exactly content-type, and HTTP_CONTENT_TYPE of any other
    # spelling (h11 takes content_type): behind them, the WSGI application
    # gets a POST without CONTENT_TYPE, a form for cgi.FieldStorage and WebOb.
    assert asgi(BODY, [], headers=[(name, MULTIPART.encode("ascii"))]) == (None, FIXED)


def test_a_multipart_label_where_every_reader_finds_it_still_passes():
    body = b"--x\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\na;b\r\n--x--\r\n"
    assert wsgi(body, MULTIPART, HTTP_CONTENT_TYPE=MULTIPART)[:2] == (None, body)
    assert asgi(body, [MULTIPART.encode("ascii")],
                headers=[(b"content_type", MULTIPART.encode("ascii"))]) == (None, body)


# --- a label-blind parser reading bodies over max_body_size --------------------------------

def test_a_body_under_bottles_own_limit_is_never_passed_on_over_ours(label_blind_parser):
    # Bottle 0.12.18 parses a text/plain body as a form up to its MEMFILE_MAX
    # (100 KiB by default). protect() passed every such body over
    # max_body_size on unread, "as that parser refuses it itself": with
    # max_body_size under 100 KiB, Bottle read the body and split it on ';'.
    assert wsgi(BODY, "text/plain", limits={"max_body_size": 10})[0] == \
        "413 Payload Too Large"
    assert asgi(BODY, [b"text/plain"], max_body_size=10)[0] == 413
    # Streamed (no length), it is rewritten as it comes, whatever its size.
    assert asgi(None, [b"text/plain"], max_body_size=10,
                headers=[(b"transfer-encoding", b"chunked")],
                messages=[{"type": "http.request", "body": BODY}]) == (None, FIXED)


def test_a_raised_memfile_max_is_bottles_limit(label_blind_parser):
    # Bottle applications raise BaseRequest.MEMFILE_MAX to take large bodies;
    # Bottle then parses a 3 MiB text/plain body as a form.
    label_blind_parser.BaseRequest = type("BaseRequest", (object,),
                                          {"MEMFILE_MAX": 10 * 1024 * 1024})
    body = BODY + b"&pad=" + b"x" * (3 * 1024 * 1024)
    assert wsgi(body, "text/plain")[0] == "413 Payload Too Large"
    assert asgi(body, [b"text/plain"])[0] == 413
    label_blind_parser.BaseRequest.MEMFILE_MAX = 100
    label_blind_parser.LocalRequest = type("LocalRequest", (object,), {"MEMFILE_MAX": 10 ** 7})
    assert wsgi(body, "text/plain")[0] == "413 Payload Too Large"  # bottle.request's class
    del label_blind_parser.LocalRequest
    big = BODY + b"&pad=" + b"x" * 200  # over Bottle's limit: it refuses it itself
    assert wsgi(big, "text/plain", limits={"max_body_size": 10})[:2] == (None, big)
    assert asgi(big, [b"text/plain"], max_body_size=10) == (None, big)


# --- a deflate body that is also a raw deflate stream --------------------------------------

def fixed_huffman_block(text):
    """*text* as one final deflate block of fixed Huffman codes (RFC 1951 3.2.6):
    its ';' are codes, not the byte ';'."""
    out, bits = bytearray(), []

    def put(value, count, msb_first=False):
        order = range(count - 1, -1, -1) if msb_first else range(count)
        bits.extend((value >> i) & 1 for i in order)
    put(1, 1)  # BFINAL
    put(1, 2)  # BTYPE 01: fixed codes
    for char in bytearray(text):
        if char <= 143:
            put(0x30 + char, 8, msb_first=True)
        else:
            put(0x190 + char - 144, 9, msb_first=True)
    put(0, 7, msb_first=True)  # end of block
    bits.extend([0] * (-len(bits) % 8))
    for start in range(0, len(bits), 8):
        out.append(sum(bit << i for i, bit in enumerate(bits[start:start + 8])))
    return bytes(out)


def deflate_polyglot(form):
    """A body that zlib (RFC 1950, what Content-Encoding: deflate names) inflates
    to 65,534 bytes without a ';', and that a raw deflate reader (RFC 1951,
    which many send and read for "deflate") inflates to ``"\\x01" + form``.
    Both readings start with a stored block: the zlib header's first byte is,
    read raw, the header of a one-byte stored block whose length bytes open
    the zlib reading's stored block of 65,534 bytes, inside which the raw
    reading finds an empty stored block, then *form* in fixed codes."""
    inner = b"\x00\x00\xff\xff" + fixed_huffman_block(form)
    stored = inner + b"a" * (0xFFFE - len(inner))
    body = b"\x78\x01" + b"\x00\xfe\xff" + b"\x01\x00" + stored + b"\x03\x00"
    return body + struct.pack(">I", zlib.adler32(stored) & 0xffffffff)


def test_a_deflate_body_is_checked_as_raw_deflate_too():
    # protect() inflated "deflate" as zlib only, found no ';' and passed the
    # body on byte for byte; an application that decodes it (the case the
    # check is for) with zlib.decompress(body, -15), as many read "deflate",
    # parses q=common_term&utm_content=s;q=malicious_term.
    body = deflate_polyglot(b"&q=common_term&utm_content=s;q=malicious_term")
    assert b";" not in body and b";" not in zlib.decompress(body)
    assert zlib.decompress(body, -15) == b"\x01&q=common_term&utm_content=s;q=malicious_term"
    assert wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING="deflate")[0] == \
        "415 Unsupported Media Type"
    assert asgi(body, [URLENCODED.encode("ascii")],
                headers=[(b"content-encoding", b"deflate")])[0] == 415


def test_an_honest_deflate_body_still_passes():
    for n in range(1000):
        body = zlib.compress(b"q=common_term&page=%d" % n)
        if b";" not in body:
            break
    assert wsgi(body, URLENCODED, HTTP_CONTENT_ENCODING="deflate")[:2] == (None, body)
    raw = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = raw.compress(b"q=common_term&page=1") + raw.flush()
    assert b";" not in raw  # sent raw, as some clients send "deflate": read raw
    assert wsgi(raw, URLENCODED, HTTP_CONTENT_ENCODING="deflate")[:2] == (None, raw)


# --- a streamed form: one await per message ------------------------------------------------

def test_asgi_a_streamed_receive_passes_cancellation_through():
    # The receive of a streamed form is one object per message delegating to
    # the server's awaitable (a server such as hypercorn makes a message of
    # each chunk): a cancelled application must reach the server's receive.
    if PY2:
        pytest.skip("ASGI is Python 3 only")
    from asgi_cancel import cancelled_while_receiving
    from urllib_parse_backport.asgi import protect as asgi_protect
    headers = [(b"content-type", URLENCODED.encode("ascii")), (b"transfer-encoding", b"chunked")]
    assert cancelled_while_receiving(asgi_protect, headers) == \
        ["server's receive cancelled", "app cancelled"]
