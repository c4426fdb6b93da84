"""The work and memory each hostile response costs, bound and stock, without a clock.

Work is counted, at n and 4n: the lines a response reads past a ``100
Continue`` (bpo-44022), the ``100 Continue`` responses it reads (gh-150743),
the trailer lines (gh-150743), and the largest read asked of the socket file
for a claimed length (gh-119451). Bound, each stays the same from n to 4n;
stock, where the interpreter lacks the fix, it grows with n. Memory is shown
in a child process under a 200 MB address-space limit: a 4 GiB claim (a
``Content-Length``, or a chunk's size) with 1 KB sent over a socket pair
raises ``IncompleteRead`` bound, and ``MemoryError`` stock where the fix is
due.
"""

import os
import subprocess
import sys

import pytest

import responses_helpers as h

N = 2000


def _lines_read(data, read=False):
    """Lines the response read: through ``begin()``, and ``read()`` if asked."""
    resp = h.response(data)
    fp = resp.fp
    try:
        resp.begin()
        if read:
            resp.read()
    except h.STOCK.HTTPException:
        pass
    resp.close()
    return fp.lines


CASES = {
    "headers after 100 Continue": (h.CONTINUE, lambda n: h.interim(1, n) + h.final(), False),
    "100 Continue responses": (h.INTERIM, lambda n: h.interim(n) + h.final(), False),
    "trailer lines": (h.INTERIM, lambda n: h.chunked((b"abc",), n), True),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_lines_read_stay_bounded_from_n_to_4n(case):
    _, make, read = CASES[case]
    with h.bound():
        small, large = _lines_read(make(N), read), _lines_read(make(4 * N), read)
    assert small == large
    assert large <= 2 * 100 + 3  # a bound's lines, a status line and the chunk size lines


@pytest.mark.parametrize("case", sorted(CASES))
def test_stock_lines_read_grow_with_n(case):
    fix, make, read = CASES[case]
    if not h.lacks(fix):
        pytest.skip("the stock code has this bound")
    small, large = _lines_read(make(N), read), _lines_read(make(4 * N), read)
    assert large >= 3.9 * small


def _largest_read(claim):
    resp = h.response(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % claim + b"x" * 1024)
    fp = resp.fp
    resp.begin()
    with pytest.raises(h.STOCK.IncompleteRead):
        resp.read()
    resp.close()
    return fp.largest


def test_largest_read_stays_bounded_from_n_to_4n():
    with h.bound():
        assert _largest_read(1 << 32) == _largest_read(1 << 34) == 1 << 20


def test_stock_largest_read_is_the_claim():
    if not h.lacks(h.LENGTH):
        pytest.skip("the stock _safe_read reads in bounded pieces")
    assert (_largest_read(1 << 32), _largest_read(1 << 34)) == (1 << 32, 1 << 34)


_CHILD = r"""
import resource, socket, sys
sys.path[:0] = sys.argv[2].split("\n")
import responses_helpers as h
resource.setrlimit(resource.RLIMIT_AS, (200 << 20, 200 << 20))
client, server = socket.socketpair()
if sys.argv[3] == "length":
    server.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (4 << 30) + b"x" * 1024)
else:  # a chunk's size is a claim too
    server.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\n"
                   + b"x" * 1024)
server.shutdown(socket.SHUT_WR)
resp = h.STOCK.HTTPResponse(client)
resp.begin()
try:
    if sys.argv[1] == "bound":
        with h.bound():
            resp.read()
    else:
        resp.read()
except h.STOCK.IncompleteRead as exc:
    print("IncompleteRead %d" % len(exc.partial))
except MemoryError:
    print("MemoryError")
"""


def _child(mode, claim):
    path = "\n".join([os.path.dirname(os.path.abspath(__file__))] + sys.path)
    out = subprocess.check_output([sys.executable, "-c", _CHILD, mode, path, claim])
    return out.decode("ascii").strip()


needs_cpython = pytest.mark.skipif(
    not sys.platform.startswith("linux") or hasattr(sys, "pypy_version_info"),
    reason="RLIMIT_AS as a measure of allocation: CPython on Linux")


@needs_cpython
@pytest.mark.parametrize("claim", ["length", "chunk"])
def test_a_4_gib_claim_fits_in_200_mb_bound(claim):
    # 3.x's chunked reader raises IncompleteRead with the whole chunks read: none here.
    assert _child("bound", claim) in ("IncompleteRead 1024", "IncompleteRead 0")


@needs_cpython
@pytest.mark.parametrize("claim", ["length", "chunk"])
def test_a_4_gib_claim_exhausts_200_mb_stock(claim):
    if not h.lacks(h.LENGTH):
        pytest.skip("the stock _safe_read reads in bounded pieces")
    assert _child("stock", claim) == "MemoryError"
