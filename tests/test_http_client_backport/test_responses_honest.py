"""Honest responses read with the three response fixes bound exactly as the stock code
reads them, and the bounds as the reference interpreter enforces them.

- generated responses (``100 Continue`` responses within the bounds, final
  responses of every framing: ``Content-Length``, chunked with trailers and
  chunk extensions, to EOF; cut short or not; GET or HEAD; a debug level or
  not) read by a generated sequence of ``read``/``readinto``/``read1``
  calls: the same status, headers, data, errors and debug output as the
  stock code, bound or not;
- bodies around gh-119451's 1 MiB first read, whole and cut short;
- a differential against the reference interpreter (``/usr/bin/python3.11``,
  which has bpo-44022's bound and not the other two) on ``100 Continue``
  header blocks around the bound and on over-long lines.
"""

import json
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import responses_helpers as h
from reference import REFERENCE, needs
from budget import examples


def _lines(draw, prefix, most):
    count = draw(st.one_of(st.integers(0, 3), st.integers(most - 3, most)))
    return b"".join(b"%s-%d: v\r\n" % (prefix, index) for index in range(count))


@st.composite
def responses(draw):
    """An honest response: each part within the bounds; maybe cut short.

    A cut can leave part of a line at the end, which the reader takes for one
    more line: after 100 whole trailer lines that partial one is the 101st,
    past gh-150743's bound (which counts every line that is not blank), so a
    response that may be cut has at most 99."""
    cut = draw(st.booleans())
    data = b""
    for _ in range(draw(st.one_of(st.integers(0, 2), st.integers(97, 99)))):
        data += b"HTTP/1.1 100 Continue\r\n" + _lines(draw, b"I", 99) + b"\r\n"
    version = draw(st.sampled_from([b"HTTP/1.1", b"HTTP/1.0"]))
    status = draw(st.sampled_from([b"200 OK", b"204 No Content", b"304 Not Modified",
                                   b"404 Not Found", b"103 Early Hints"]))
    data += version + b" " + status + b"\r\nX-A: 1\r\n"
    framing = draw(st.sampled_from(["length", "chunked", "eof"]))
    body = draw(st.binary(max_size=300))
    if framing == "length":
        data += b"Content-Length: %d\r\n\r\n" % len(body) + body
    elif framing == "chunked":
        data += b"Transfer-Encoding: chunked\r\n\r\n"
        for size in draw(st.lists(st.integers(1, 200), max_size=4)):
            ext = draw(st.sampled_from([b"", b";name=value"]))
            data += b"%x%s\r\n" % (size, ext) + b"c" * size + b"\r\n"
        data += b"0\r\n" + _lines(draw, b"T", 99 if cut else 100) + b"\r\n"
    else:
        data += b"Connection: close\r\n\r\n" + body
    if cut:
        data = data[:draw(st.integers(0, len(data)))]
    return data


OPS = ["read"] if h.PY2 else ["read", "readinto", "read1"]


@st.composite
def reads(draw):
    """A sequence of reads; the last one often a whole ``read()``."""
    ops = [(draw(st.sampled_from(OPS)), draw(st.integers(0, 400)))
           for _ in range(draw(st.integers(0, 3)))]
    if draw(st.booleans()):
        ops.append(("read", None))
    return ops


@settings(max_examples=examples(200), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(responses(), reads(), st.sampled_from([None, "HEAD"]), st.sampled_from([0, 1]))
def test_honest_responses_read_as_the_stock_code_reads_them(data, ops, method, debuglevel):
    stock = h.outcome(data, ops, method, debuglevel)
    with h.bound():
        assert h.outcome(data, ops, method, debuglevel) == stock


@pytest.mark.parametrize("size", [(1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 5])
@pytest.mark.parametrize("cut", [0, 1, 1 << 19, (1 << 20) + 7])
@pytest.mark.parametrize("ops", [[("read", None)], [("read", 10), ("read", None)]])
def test_bodies_around_the_first_read(size, cut, ops):
    """Whole or cut short by *cut* bytes, a body reads as the stock code reads it."""
    body = bytes(bytearray(range(256))) * (size // 256) + b"x" * (size % 256)
    data = h.final(body)
    data = data[:len(data) - cut]
    stock = h.outcome(data, ops)
    with h.bound():
        assert h.outcome(data, ops) == stock


@pytest.mark.parametrize("size", [1 << 20, (1 << 20) + 1, 5 << 20])
def test_chunk_larger_than_the_first_read(size):
    """A chunk's size is a claim too: read in pieces, the same bytes."""
    data = h.chunked([b"z" * size, b"end"], trailers=3)
    for ops in ([("read", None)], [("read", 5), ("read", None)]):
        stock = h.outcome(data, ops)
        with h.bound():
            assert h.outcome(data, ops) == stock


EDGES = [
    b"hello world\r\nmore",  # no status line: HTTP/0.9 on 2.7, BadStatusLine on 3.x
    b"",
    b"HTTP/1.1 100 Continue\r\n\r\nhello",
    b"HTTP/1.1 100 Continue\r\n   \r\nHTTP/1.1 200 OK\r\n\r\nx",  # 2.7: blank; 3.x: a line
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 999 Odd\r\n\r\n",
    b"HTTP/2 100 X\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
    b"HTTP/1.1 100 Continue\n\nHTTP/1.0 200 OK\nContent-Length: 2\n\nok",
    b"HTTP/1.1 100 Continue\r\nX: " + b"a" * 70000,
]


@pytest.mark.parametrize("data", EDGES)
@pytest.mark.parametrize("debuglevel", [0, 1])
def test_odd_status_lines_read_as_the_stock_code_reads_them(data, debuglevel):
    stock = h.outcome(data, debuglevel=debuglevel)
    with h.bound():
        assert h.outcome(data, debuglevel=debuglevel) == stock


# -- the differential against the reference interpreter -------------------------------

_CHILD = r"""
import http.client, io, json, sys

class Sock:
    def __init__(self, data):
        self.data = data
    def makefile(self, *args):
        return io.BytesIO(self.data)

out = []
for text in json.load(sys.stdin):
    resp = http.client.HTTPResponse(Sock(text.encode("latin-1")))
    try:
        resp.begin()
        out.append([resp.status, resp.read().decode("latin-1")])
    except http.client.HTTPException as exc:
        out.append([type(exc).__name__, str(exc)])
json.dump(out, sys.stdout)
"""


def _corpus():
    cases = []
    for lines in range(95, 106):
        for line in (b"r\r\n", b"X-Long-Name: value\r\n", b"Y:\n"):
            cases.append(b"HTTP/1.1 100 Continue\r\n" + line * lines + b"\r\n" + h.final())
    cases.append(h.interim(3, 99) + h.final())
    cases.append(h.interim(2, 99) + b"HTTP/1.1 100 Continue\r\n" + b"r\r\n" * 100)
    cases.append(b"HTTP/1.1 100 Continue\r\nX: " + b"a" * 65536 + b"\r\n\r\n" + h.final())
    cases.append(b"HTTP/1.1 100 Continue\r\nX: " + b"a" * 65530 + b"\r\n\r\n" + h.final())
    return cases


def _ours(data):
    resp = h.response(data)
    try:
        resp.begin()
        result = [resp.status, resp.read().decode("latin-1")]
    except h.STOCK.HTTPException as exc:
        result = [type(exc).__name__, str(exc)]
    resp.close()
    return result


@needs(carrying=["CVE-2021-3737"])  # bpo-44022's bound
def test_continue_headers_as_the_reference_bounds_them():
    corpus = _corpus()
    child = subprocess.Popen([REFERENCE, "-c", _CHILD], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    out = child.communicate(json.dumps([each.decode("latin-1") for each in corpus])
                            .encode("ascii"))[0]
    expected = json.loads(out.decode("utf-8"))
    with h.bound():
        ours = [_ours(data) for data in corpus]
    assert ours == expected
    assert ["HTTPException", "got more than 100 headers"] in expected  # the bound is met
