"""Cost of the response bounds (CVE-2021-3737, gh-150743, CVE-2025-13836), honest and hostile.

Why: the fixes put a loop of their own in front of ``HTTPResponse.begin`` and
read a long body in pieces; an honest response must cost what it did, and a
hostile one must stop costing. Run it with any interpreter of the matrix::

    python2.7 benchmarks/bench_http_client_responses.py
    python3.13 benchmarks/bench_http_client_responses.py --attacks --stock

It imports ``http_client_backport`` from this checkout's ``src`` and binds
the three fixes by hand (``force``: on every interpreter). Honest input: the
bound and the stock methods are timed interleaved in this one process (best
of N rounds) on the same responses, and the ratio bound / stock is printed
(1.00 = no cost). ``--attacks``: each hostile response is read in a child
process limited to 200 MB of address space (and, stock, to 5 s of CPU),
which prints its CPU time, its peak resident size and how the read ended.
The hostile servers stream: no response is held in memory whole.
"""

from __future__ import print_function

import argparse
import io
import json
import os
import socket
import subprocess
import sys
import timeit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from http_client_backport import _content_length, _continue_headers, _interim  # noqa: E402
from http_client_backport._responses import STDLIB  # noqa: E402

STOCK = __import__(STDLIB, None, None, ("HTTPResponse",))
FIXES = (_continue_headers, _interim, _content_length)


def bind():
    """Bind the three fixes on the stock ``HTTPResponse``; returns a function undoing it."""
    cls, saved = STOCK.HTTPResponse, []
    for fix in FIXES:
        for path, new in sorted(fix.replacements(STOCK).items()):
            name = path.split(".", 1)[1]
            saved.append((name, cls.__dict__[name]))
            setattr(cls, name, new)

    def undo():
        for name, old in reversed(saved):
            setattr(cls, name, old)
    return undo


class Stream(io.RawIOBase):
    """A server's bytes, made as read: *head*, then *unit* *count* times, then *tail*."""

    def __init__(self, head, unit, count, tail):
        io.RawIOBase.__init__(self)
        self.parts = [head, tail]
        self.unit, self.left = unit, count
        self.block = unit * max(1, 65536 // len(unit))

    def readable(self):
        return True

    def readinto(self, buffer):
        if self.parts[0]:
            data, self.parts[0] = self.parts[0][:len(buffer)], self.parts[0][len(buffer):]
        elif self.left:
            units = min(self.left, max(1, len(buffer) // len(self.unit)),
                        len(self.block) // len(self.unit))
            data, self.left = self.block[:units * len(self.unit)], self.left - units
        else:
            data, self.parts[1] = self.parts[1][:len(buffer)], self.parts[1][len(buffer):]
        buffer[:len(data)] = data
        return len(data)


class Socket(object):
    def __init__(self, file):
        self.file = file

    def makefile(self, *args):
        return self.file


FINAL = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
CHUNKED = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n"

#: ``{case: (head, unit, count, tail)}``, each as the issue states it.
ATTACKS = {
    "1M header lines after 100 Continue": (b"HTTP/1.1 100 Continue\r\n", b"r\r\n", 10 ** 6,
                                           b"\r\n" + FINAL),
    "4M 100 Continue responses": (b"", b"HTTP/1.1 100 Continue\r\n\r\n", 4 * 10 ** 6, FINAL),
    "20M trailer lines": (CHUNKED, b"X: y\r\n", 20 * 10 ** 6, b"\r\n"),
}


def child(case, mode):
    """Read one hostile response here, under the limits; print what it cost as JSON."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (200 << 20, 200 << 20))
    if mode == "stock":
        resource.setrlimit(resource.RLIMIT_CPU, (5, 5))
    else:
        bind()
    if case == "4 GiB claimed, 1 KB sent":
        client, server = socket.socketpair()
        server.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (4 << 30)
                       + b"x" * 1024)
        server.shutdown(socket.SHUT_WR)
        response = STOCK.HTTPResponse(client)
    else:
        stream = io.BufferedReader(Stream(*ATTACKS[case]))
        response = STOCK.HTTPResponse(Socket(stream))
    start = resource.getrusage(resource.RUSAGE_SELF)
    try:
        response.begin()
        ended = "read %d bytes" % len(response.read())
    except MemoryError:
        ended = "MemoryError"
    except STOCK.HTTPException as exc:
        ended = "%s: %s" % (type(exc).__name__, str(exc)[:60])
    end = resource.getrusage(resource.RUSAGE_SELF)
    cpu = end.ru_utime + end.ru_stime - start.ru_utime - start.ru_stime
    print(json.dumps({"cpu": cpu, "rss_mb": end.ru_maxrss / 1024.0, "ended": ended}))


def attacks(stock):
    rows = []
    for case in sorted(ATTACKS) + ["4 GiB claimed, 1 KB sent"]:
        for mode in (["bound", "stock"] if stock else ["bound"]):
            run = subprocess.Popen([sys.executable, __file__, "--child", case, mode],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, _ = run.communicate()
            try:
                got = json.loads(out.decode("ascii"))
                rows.append((case, mode, "%.3f" % got["cpu"], "%.0f" % got["rss_mb"],
                             got["ended"]))
            except ValueError:  # killed at its CPU limit (SIGXCPU)
                rows.append((case, mode, ">5", "-", "killed: exit %s" % run.returncode))
    print("%-36s %-6s %8s %8s  %s" % ("case", "mode", "CPU s", "RSS MB", "ended"))
    for row in rows:
        print("%-36s %-6s %8s %8s  %s" % row)


HONEST = {
    "200, 1 KB body": b"HTTP/1.1 200 OK\r\nContent-Length: 1024\r\n\r\n" + b"x" * 1024,
    "100 Continue, then 200": b"HTTP/1.1 100 Continue\r\n\r\n" + FINAL,
    "chunked, 3 trailers": CHUNKED + b"A: 1\r\nB: 2\r\nC: 3\r\n\r\n",
    "200, 3 MiB body": b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % (3 << 20)
                       + b"y" * (3 << 20),
}


def honest(rounds, number):
    undo = bind()
    bound = dict((name, STOCK.HTTPResponse.__dict__[name])
                 for name in ("begin", "_safe_read", "_read_chunked"
                              if STDLIB == "httplib" else "_read_and_discard_trailer"))
    undo()

    def reading(data):
        def call():
            response = STOCK.HTTPResponse(Socket(io.BytesIO(data)))
            response.begin()
            response.read()
        return call

    print("%-26s %10s %10s %6s" % ("honest response", "stock us", "bound us", "ratio"))
    for name, data in sorted(HONEST.items()):
        best = {}
        for round_ in range(rounds):
            for mode in (("stock", "bound") if round_ % 2 else ("bound", "stock")):
                undo = bind() if mode == "bound" else (lambda: None)
                elapsed = timeit.timeit(reading(data), number=number) / number
                undo()
                best[mode] = min(best.get(mode, elapsed), elapsed)
        print("%-26s %10.1f %10.1f %6.2f" % (name, best["stock"] * 1e6, best["bound"] * 1e6,
                                             best["bound"] / best["stock"]))
    assert bound  # the bound methods were made (a smoke check of replacements())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--attacks", action="store_true", help="the hostile cases too")
    parser.add_argument("--stock", action="store_true", help="hostile cases on stock code too")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(*args.child)
    print(sys.version.split()[0])
    honest(args.rounds, args.number)
    if args.attacks:
        attacks(args.stock)


if __name__ == "__main__":
    main()
