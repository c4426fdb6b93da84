"""CPU cost of urllib_request_backport on honest input: patched over stock, from one run.

For every interpreter named on the command line (default: the one running
this script), a child process times, in CPU seconds, honest calls with the
stdlib as it is, then after ``urllib_request_backport.patch(force=True)``,
and prints the ratio of each (patched / stock):

- ``http_error_auth_reqed`` (``urllib2``'s on 2.7) on three honest
  ``WWW-Authenticate`` headers: one Basic challenge, Digest then Basic, a
  Bearer challenge without a realm (CVE-2020-8492, CVE-2021-3733);
- ``DataHandler.data_open`` (3.x) on CPython's test URLs and a 48 KB base64
  one (CVE-2025-15282).

The package must be importable by each interpreter (installed, or
``PYTHONPATH=src``). Usage:
``python benchmarks/bench_urllib_request_backport.py [python ...]``.
"""

from __future__ import print_function

import argparse
import json
import subprocess
import sys

CHILD = r"""
import base64, json, sys, time, timeit, warnings
warnings.simplefilter("ignore")
try:
    import urllib.request as request
    from email.message import Message
    def headers(value):
        message = Message()
        message["WWW-Authenticate"] = value
        return message
except ImportError:
    import urllib2 as request
    import httplib
    from StringIO import StringIO
    def headers(value):
        return httplib.HTTPMessage(StringIO("WWW-Authenticate: %s\r\n\r\n" % value))
import urllib_request_backport

cpu = getattr(time, "process_time", None) or time.clock

def best(function, number):
    return min(timeit.Timer(function, timer=cpu).repeat(5, number)) / number

AUTH = {
    "auth: Basic": 'Basic realm="example.com"',
    "auth: Digest, Basic": ('Digest realm="x", qop="auth, auth-int", nonce="dcd98b71", '
                            'opaque="5ccc069c", Basic realm="x"'),
    "auth: Bearer, no realm": 'Bearer error="invalid_token", error_description="expired"',
}
DATA = {
    "data: text": "data:text/plain;charset=UTF-8,test%20data%20URLs%20%3A%3B%2C%25",
    "data: base64 text": "data:text/plain;charset=ISO-8859-1;base64,"
                         "dGVzdCBkYXRhIFVSTHMgOjssJT0mIPYgxCA%3D",
    "data: 48 KB base64": "data:application/octet-stream;base64,"
                          + base64.b64encode(b"\x00\x01" * 18432).decode("ascii"),
}

class Req(object):
    def __init__(self, url):
        self.full_url = url

def cases():
    found = {}
    handler = request.HTTPBasicAuthHandler()
    handler.retry_http_basic_auth = lambda host, req, realm: realm
    for name, value in AUTH.items():
        message = headers(value)
        def call(message=message):
            try:
                handler.http_error_auth_reqed("www-authenticate", "http://h/", None, message)
            except ValueError:
                pass
        found[name] = best(call, 2000)
    if hasattr(request, "DataHandler"):
        data = request.DataHandler()
        for name, url in DATA.items():
            req = Req(url)
            found[name] = best(lambda req=req: data.data_open(req), 200)
    return found

stock = cases()
urllib_request_backport.patch(force=True)
print(json.dumps({"stock": stock, "patched": cases()}))
"""


def measure(python):
    out = subprocess.check_output([python, "-c", CHILD])
    return json.loads(out.decode("ascii"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pythons", nargs="*", default=[sys.executable])
    args = parser.parse_args(argv)
    for python in args.pythons:
        result = measure(python)
        print(python)
        for case in sorted(result["patched"]):
            stock, patched = result["stock"][case], result["patched"][case]
            print("  %-24s stock %8.2f us   patched %8.2f us   %.2fx" % (
                case, stock * 1e6, patched * 1e6, patched / stock))
    return 0


if __name__ == "__main__":
    sys.exit(main())
