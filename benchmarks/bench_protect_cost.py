"""What an attacker-sized request costs ``protect()``, against the same request without it.

Why: a protection that costs seconds per request is a denial of service.
Each family of docs/frameworks.rst ("What protect() costs") is sent at the
sizes servers accept (a 64 kB header: wsgiref's limit; a 2.5 MiB body:
``max_body_size``), through ``wsgi.protect`` with its default bounds (most
are then refused, the cheapest answer) and with the bounds lifted (the
parsing itself), and bare. Printed: CPU milliseconds over the bare request,
the best of N rounds, from this one run; then the process's memory after
1,000 requests of client-chosen charset names. Run from the repository root::

    python3.13 benchmarks/bench_protect_cost.py
    python2.7 benchmarks/bench_protect_cost.py --rounds 3
"""

from __future__ import print_function

import argparse
import io
import os
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "src"))

from urllib_parse_backport.wsgi import protect  # noqa: E402

URLENCODED = "application/x-www-form-urlencoded"
HEADER = 64 * 1024
BODY = 2621440
LIFTED = {"max_header_size": 10 ** 9, "max_parameters": 10 ** 9, "max_members": 10 ** 9}
clock = getattr(time, "process_time", None) or time.clock


def fill(unit, size, head=None):
    """*head*, then *unit* repeated up to *size*."""
    head = unit[:0] if head is None else head
    return head + unit * ((size - len(head)) // len(unit))


def bomb(size):
    """*size* bytes of zlib stream of ``a``s: past 2.5 MiB decoded in its first KiB."""
    compressor, block, out = zlib.compressobj(9), b"a" * (1 << 20), []
    while sum(len(piece) for piece in out) < size:
        out.append(compressor.compress(block))
    return b"".join(out)[:size]


FORM = b"q=common_term&utm_content=s;q=malicious_term"
#: (name, Content-Type, Content-Encoding, body): each at the servers' sizes.
FAMILIES = [
    ("honest form, 44 B", URLENCODED, None, FORM),
    ("honest form, 2.5 MiB", URLENCODED, None, fill(b"a=b&", BODY)),
    ("form of ';', 2.5 MiB", URLENCODED, None, fill(b"a=b;", BODY)),
    ("charset= x many, 64 kB", fill("; charset=x", HEADER, URLENCODED), None, FORM),
    ("charset=charset=..., 64 kB", fill("charset=", HEADER, URLENCODED + "; "), None, FORM),
    ('multipart/,",",..., 64 kB', fill(',",', HEADER, "multipart/"), None, FORM),
    ("quoted charset, 64 kB", fill("a\\", HEADER, URLENCODED + '; charset="'), None, FORM),
    ("empty zlib members, 2.5 MiB", URLENCODED, "deflate", fill(zlib.compress(b""), BODY)),
    ("zlib bomb, 2.5 MiB", URLENCODED, "deflate", bomb(BODY)),
]


def app(environ, start_response):
    environ["wsgi.input"].read()
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]


def start_response(status, headers, exc_info=None):
    return None


def environ(content_type, coding, body, query="q=1"):
    env = {"REQUEST_METHOD": "POST", "PATH_INFO": "/", "QUERY_STRING": query,
           "CONTENT_TYPE": content_type, "CONTENT_LENGTH": str(len(body)),
           "wsgi.input": io.BytesIO(body)}
    if coding:
        env["HTTP_CONTENT_ENCODING"] = coding
    return env


def cost(handler, content_type, coding, body, rounds):
    best = None
    for _ in range(rounds):
        env = environ(content_type, coding, body)
        start = clock()
        b"".join(handler(env, start_response))
        spent = clock() - start
        best = spent if best is None else min(best, spent)
    return best


def resident():
    """This process's resident memory in kB (Linux), or None."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (IOError, OSError, ValueError):
        return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import logging
    logging.getLogger("urllib_parse_backport").setLevel(logging.ERROR)  # one line per refusal
    bounded, lifted = protect(app), protect(app, **LIFTED)
    print("Python %s: CPU ms over the bare request, best of %d" % (
        sys.version.split()[0], args.rounds))
    print("%-30s %10s %14s %14s" % ("request", "bare ms", "bounded +ms", "lifted +ms"))
    for name, content_type, coding, body in FAMILIES:
        bare = cost(app, content_type, coding, body, args.rounds)
        with_bounds = cost(bounded, content_type, coding, body, args.rounds)
        without = cost(lifted, content_type, coding, body, args.rounds)
        extra = ((with_bounds - bare) * 1e3, (without - bare) * 1e3)
        print("%-30s %10.3f %14.3f %14.3f" % ((name, bare * 1e3) + extra))
    import encodings

    def charsets(first, count):
        for n in range(first, first + count):
            content_type = URLENCODED + "; charset=no-such-codec-%d; charset=iso-8859-%d" % (n, n)
            b"".join(bounded(environ(content_type, None, FORM, "q=%d" % n), start_response))
    charsets(0, 100)  # the allocator's first pages
    cache, before = len(encodings._cache), resident()
    charsets(100, 1000)
    after = resident()
    print("1,000 requests naming new charsets: encodings._cache %d -> %d entries, "
          "resident memory %s -> %s kB" % (cache, len(encodings._cache), before, after))


if __name__ == "__main__":
    main()
