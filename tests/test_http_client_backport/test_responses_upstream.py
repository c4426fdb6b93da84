"""Upstream's tests of the three response bounds, adapted, with the fixes bound.

- bpo-44022 (CVE-2021-3737): CPython's ``test_httplib.BasicTest.
  test_overflowing_header_limit_after_100`` (a ``100 Continue`` followed by
  32768 header lines raises ``HTTPException`` "got more than ... headers");
- gh-150743: the interim-response and trailer bounds (99 ``100 Continue``
  responses reach the final one, the 100th raises "got more than 100
  interim responses"; 100 trailer lines are read, the 101st raises "got
  more than 100 trailers");
- gh-119451 (CVE-2025-13836): ``test_large_content_length`` (bodies of 2**15
  to 2**22 bytes read whole) and ``test_large_content_length_truncated``
  (claims of 2**18 to 2**64 bytes with ``Text`` sent raise
  ``IncompleteRead``), over a fake socket and over a real socket pair.

Each also runs against the stock code, where the interpreter lacks the fix,
to show that the test fails there.
"""

import socket
import threading

import pytest

import responses_helpers as h
from responses_helpers import STOCK


# -- bpo-44022 ------------------------------------------------------------------------

def test_overflowing_header_limit_after_100():
    """CPython's test: 'HTTP/1.1 100 OK' then 32768 lines of 'r'."""
    data = b"HTTP/1.1 100 OK\r\n" + b"r\r\n" * 32768
    resp = h.response(data)
    with h.bound():
        with pytest.raises(STOCK.HTTPException) as caught:
            resp.begin()
    resp.close()
    assert "got more than " in str(caught.value)
    assert "headers" in str(caught.value)
    assert str(caught.value) == "got more than 100 headers"


@pytest.mark.parametrize("lines, fails", [(98, False), (99, False), (100, True), (101, True)])
def test_header_bound_after_100_counts_the_blank_line(lines, fails):
    """``_read_headers`` counts the blank line: 99 header lines pass, 100 do not."""
    data = h.interim(1, lines) + h.final()
    with h.bound():
        results, _ = h.outcome(data)
    if fails:
        assert results == [("HTTPException", "got more than 100 headers")]
    else:
        assert results[0][0] == 200 and results[1] == b"abc"


def test_stock_reads_headers_after_100_without_bound():
    """Where the stock code lacks bpo-44022 (2.7.18), the 32768 lines are read."""
    if not h.lacks(h.CONTINUE):
        pytest.skip("the stock begin has bpo-44022's bound")
    data = h.interim(1, 32768) + h.final()
    assert h.outcome(data)[0][1] == b"abc"


# -- gh-150743 ------------------------------------------------------------------------

def test_99_interim_responses_reach_the_final_one():
    with h.bound():
        results, _ = h.outcome(h.interim(99, 2) + h.final(b"abc"))
    assert results[0][0] == 200
    assert results[1] == b"abc"


@pytest.mark.parametrize("count", [100, 101, 1000])
def test_too_many_interim_responses(count):
    data = h.interim(count) + h.final()
    with h.bound():
        resp = h.response(data)
        with pytest.raises(STOCK.HTTPException) as caught:
            resp.begin()
    assert type(caught.value) is STOCK.HTTPException
    assert str(caught.value) == "got more than 100 interim responses"
    # As upstream's loop: the 100th response's headers are read, the next status line is not.
    assert resp.fp.read() == data[len(h.interim(100)):]
    resp.close()


def test_stock_reads_interim_responses_without_bound():
    if not h.lacks(h.INTERIM):
        pytest.skip("the stock code has gh-150743's bounds")
    assert h.outcome(h.interim(1000) + h.final())[0][1] == b"abc"


@pytest.mark.parametrize("trailers", [0, 1, 99, 100])
def test_trailers_within_the_bound(trailers):
    with h.bound():
        results, _ = h.outcome(h.chunked((b"ab", b"c"), trailers))
    assert results[1] == b"abc"
    assert results[2] == ("closed", True)


@pytest.mark.parametrize("trailers", [101, 102, 5000])
def test_too_many_trailers(trailers):
    with h.bound():
        results, _ = h.outcome(h.chunked((b"ab", b"c"), trailers))
    assert results[1] == ("HTTPException", "got more than 100 trailers")


def test_trailer_bound_applies_to_partial_reads():
    """``read(amt)`` reaches the trailer too, through the same reader."""
    ops = [("read", 2), ("read", 5)]
    with h.bound():
        results, _ = h.outcome(h.chunked((b"ab", b"c"), 101), ops)
    assert results[1] == b"ab"
    assert results[2] == ("HTTPException", "got more than 100 trailers")


def test_stock_reads_trailers_without_bound():
    if not h.lacks(h.INTERIM):
        pytest.skip("the stock code has gh-150743's bounds")
    assert h.outcome(h.chunked((b"abc",), 5000))[0][1] == b"abc"


# -- gh-119451 ------------------------------------------------------------------------

@pytest.mark.parametrize("power", range(15, 23))
def test_large_content_length(power):
    size = 1 << power
    body = b"A" * (size // 3) + b"B" * (size - size // 3)
    with h.bound():
        results, _ = h.outcome(h.final(body))
    assert results[1] == body


@pytest.mark.parametrize("power", range(18, 65))
def test_large_content_length_truncated(power):
    size = 1 << power
    data = b"HTTP/1.1 200 Ok\r\nContent-Length: %d\r\n\r\nText" % size
    with h.bound():
        resp = h.response(data)
        resp.begin()
        fp = resp.fp  # read() closes the response, which forgets it
        with pytest.raises(STOCK.IncompleteRead) as caught:
            resp.read()
    resp.close()
    assert (caught.value.partial, caught.value.expected) == (b"Text", size - 4)
    assert fp.largest <= 1 << 20  # never more asked of the socket file than 1 MiB


def test_stock_asks_for_the_whole_claim():
    """The stock ``_safe_read`` of 3.8 and 3.10-3.13.0 asks for all 2**40 bytes at once."""
    if not h.lacks(h.LENGTH):
        pytest.skip("the stock _safe_read reads in bounded pieces")
    resp = h.response(b"HTTP/1.1 200 Ok\r\nContent-Length: %d\r\n\r\nText" % (1 << 40))
    resp.begin()
    fp = resp.fp
    with pytest.raises(STOCK.IncompleteRead):
        resp.read()
    resp.close()
    assert fp.largest == 1 << 40


def _serve(pair, data):
    try:
        pair.sendall(data)
    finally:
        pair.shutdown(socket.SHUT_WR)


@pytest.mark.parametrize("power", [18, 32, 40, 64])
def test_large_content_length_truncated_over_a_socket(power):
    """Through a real buffered socket file, whose ``read(n)`` allocates *n* bytes first."""
    size = 1 << power
    client, server = socket.socketpair()
    try:
        _serve(server, b"HTTP/1.1 200 Ok\r\nContent-Length: %d\r\n\r\nText" % size)
        with h.bound():
            resp = STOCK.HTTPResponse(client)
            resp.begin()
            with pytest.raises(STOCK.IncompleteRead) as caught:
                resp.read()
        assert caught.value.partial == b"Text"
    finally:
        client.close()
        server.close()


def test_large_content_length_over_a_socket():
    """3 MiB and 5 bytes, sent from a thread: read whole in pieces, as sent."""
    body = bytes(bytearray(range(256))) * (3 * 4096) + b"tail!"
    client, server = socket.socketpair()
    sender = threading.Thread(target=_serve, args=(server, h.final(body)))
    sender.start()
    try:
        with h.bound():
            resp = STOCK.HTTPResponse(client)
            resp.begin()
            assert resp.read() == body
    finally:
        sender.join()
        client.close()
        server.close()
