"""Cost of the ``http.client`` header-injection guards on honest requests: ratios from one run.

For every interpreter named on the command line (default: the one running
this script), a child process times honest calls, in CPU seconds
(``getrusage``, user + system), with the stdlib as it is and after
``http_client_backport.patch(force=True)`` with the package's other fixes
left out (the three guards bound, whether the interpreter needs them or
not), alternating the two several times and keeping each side's best round:

- ``putrequest``: ``putrequest("GET", "/search?q=1")`` on one connection,
  its state reset between calls (CVE-2020-26116's guard);
- ``HTTPConnection()``: a connection object made (CVE-2019-18348's guard);
- ``request``: a connection made, ``putrequest``, two ``putheader``,
  ``endheaders`` into a fake socket;
- ``set_tunnel + connect``: a tunnel with a ``Proxy-Authorization``
  header set and ``connect()`` through a fake proxy answering 200
  (gh-146211's guard, in ``_tunnel``): Python code only, the guard's
  share at its largest;
- ``... over loopback TCP``: the same through a real socket to a proxy on
  127.0.0.1 that has its answer ready, as a tunnel is made in practice.

It prints patched/stock per case; the goal is at most 1.05. The package
must be importable by each interpreter (installed, or ``PYTHONPATH=src``).
Usage: ``python benchmarks/bench_http_client_backport.py [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

CHILD = r"""
import io, json, resource, socket, sys
try:
    import http.client as client
except ImportError:
    import httplib as client
import http_client_backport
from _cpython_security._registry import fixes_of

MINE = ("CVE-2020-26116", "CVE-2019-18348", "gh-146211")
OTHERS = [fix.cve for fix in fixes_of("http_client_backport") if fix.cve not in MINE]

class Sock(object):
    def __init__(self):
        self.data = []
    def sendall(self, data):
        self.data.append(data)
    def makefile(self, mode, bufsize=None):
        return io.BytesIO(b"HTTP/1.1 200 Connection established\r\n\r\n")
    def setsockopt(self, *args):
        pass
    def close(self):
        pass

def putrequest(n):
    conn = client.HTTPConnection("example.com")
    idle = client._CS_IDLE
    for _ in range(n):
        conn._HTTPConnection__state = idle
        del conn._buffer[:]
        conn.putrequest("GET", "/search?q=1")

def construct(n):
    for _ in range(n):
        client.HTTPConnection("example.com", 8080)

def request(n):
    for _ in range(n):
        conn = client.HTTPConnection("example.com")
        conn.sock = Sock()
        conn.putrequest("GET", "/search?q=1")
        conn.putheader("Accept", "*/*")
        conn.putheader("User-Agent", "bench/1.0")
        conn.endheaders()

def tunnel(n):
    headers = {"Proxy-Authorization": "Basic dXNlcjpwYXNzd29yZA=="}
    for _ in range(n):
        conn = client.HTTPConnection("proxy.example", 3128)
        conn._create_connection = lambda *args, **kwargs: Sock()
        conn.set_tunnel("www.example.com", 443, headers)
        conn.connect()

LISTENER = socket.socket()
LISTENER.bind(("127.0.0.1", 0))
LISTENER.listen(8)
ANSWER = b"HTTP/1.1 200 Connection established\r\n\r\n"

def tunnel_tcp(n):
    headers = {"Proxy-Authorization": "Basic dXNlcjpwYXNzd29yZA=="}
    for _ in range(n):
        near = socket.create_connection(LISTENER.getsockname())
        far = LISTENER.accept()[0]
        far.sendall(ANSWER)
        conn = client.HTTPConnection("proxy.example", 3128)
        conn._create_connection = lambda *args, **kwargs: near
        conn.set_tunnel("www.example.com", 443, headers)
        conn.connect()
        far.recv(4096)
        conn.close()
        far.close()

CASES = [("putrequest", putrequest, 20000), ("HTTPConnection()", construct, 20000),
         ("request", request, 5000), ("set_tunnel + connect", tunnel, 5000),
         ("... over loopback TCP", tunnel_tcp, 2000)]

def seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

def best(function, n):
    spent = []
    for _ in range(3):
        start = seconds()
        function(n)
        spent.append(seconds() - start)
    return min(spent)

result = {"version": sys.version.split()[0], "vulnerable": http_client_backport.is_vulnerable(),
          "stock": {}, "patched": {}}
for round_ in range(5):
    for side in ("stock", "patched"):
        if side == "patched":
            http_client_backport.patch(force=True, _leave_out=OTHERS)
        for name, function, n in CASES:
            spent = best(function, n)
            result[side][name] = min(result[side].get(name, spent), spent)
        http_client_backport.unpatch()
print(json.dumps(result))
"""


def measure(python):
    out = subprocess.check_output([python, "-c", CHILD])
    return json.loads(out.decode("ascii"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    worst = 0.0
    for python in args.pythons:
        result = measure(python)
        print("%s %s (lacks a fix: %s)" % (python, result["version"], result["vulnerable"]))
        for case in sorted(result["stock"]):
            stock, patched = result["stock"][case], result["patched"][case]
            worst = max(worst, patched / stock)
            print("  %-23s stock %.4f s   patched %.4f s   ratio %.3f" % (
                case, stock, patched, patched / stock))
    print("worst ratio %.3f (goal <= 1.05)" % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
