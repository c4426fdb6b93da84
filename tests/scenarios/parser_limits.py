"""One attacker-sized parser input (issue 48), run under CPU and memory limits.

``python parser_limits.py CASE``: sets ``RLIMIT_CPU`` to the CPU time used so
far plus :data:`CPU_SECONDS` and ``RLIMIT_AS`` to the address space in use
plus :data:`EXTRA_BYTES`, then feeds the case's input to the stdlib module
and prints one JSON line, ``{"case": CASE, "outcome": ...}``: ``"returned"``,
``"raised <Type>"`` for the error upstream's fixed code raises there, or
``"absent"`` when this interpreter has no such module. Any other error (a
``MemoryError`` above all) ends the process with a traceback; running out of
CPU time ends it by ``SIGXCPU``. No network: responses come from fake
sockets.
"""

from __future__ import print_function

import io
import json
import resource
import sys

CPU_SECONDS = 5
EXTRA_BYTES = 400 << 20

PY2 = sys.version_info[0] == 2
if PY2:  # 2.7's module names
    import Cookie as cookies
    import HTMLParser as html_parser
    import httplib as client
    import urllib2 as request
    from StringIO import StringIO

    def parse_headers(data):
        return client.HTTPMessage(StringIO(data.decode("latin-1")))
else:
    import html.parser as html_parser
    import http.client as client
    import http.cookies as cookies
    import urllib.request as request

    def parse_headers(data):
        return client.parse_headers(io.BytesIO(data))


def set_limits():
    used = resource.getrusage(resource.RUSAGE_SELF)
    seconds = int(used.ru_utime + used.ru_stime) + CPU_SECONDS
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    try:
        with open("/proc/self/statm") as statm:
            in_use = int(statm.read().split()[0]) * resource.getpagesize()
    except (IOError, OSError):  # no /proc: the CPU limit only
        return
    resource.setrlimit(resource.RLIMIT_AS, (in_use + EXTRA_BYTES, in_use + EXTRA_BYTES))


class _Raw(io.RawIOBase):
    """A socket's raw stream: *data*, then the end (the peer stopped sending)."""

    def __init__(self, data):
        io.RawIOBase.__init__(self)
        self._data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, buffer):
        chunk = self._data.read(len(buffer))
        buffer[:len(chunk)] = chunk
        return len(chunk)


class FakeSocket(object):
    """A socket whose file reads *data* through a buffered reader, as a real one's does."""

    def __init__(self, data):
        self.data = data

    def makefile(self, *args, **keywords):
        return io.BufferedReader(_Raw(self.data))


def response(data, read=False):
    resp = client.HTTPResponse(FakeSocket(data))
    try:
        resp.begin()
        if read:
            resp.read()
    finally:
        resp.close()


FINAL = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"


def email_param():
    import email.message
    message = email.message.Message()
    message["Content-Type"] = '"' + ";" * 100000
    message.get_param("charset")


def idna_decode():
    (b"xn--016c" + b"a" * 3000).decode("idna")


def idna_encode():
    (u"\u05d0" * 3000).encode("idna")


class _Unauthorized(request.BaseHandler):
    """Answers every request with a 401 whose challenge is *challenge*."""

    def __init__(self, challenge):
        self.challenge = challenge

    def http_open(self, req):
        headers = parse_headers(b"WWW-Authenticate: " + self.challenge + b"\r\n\r\n")
        return self.parent.error("http", req, io.BytesIO(b""), 401, "Unauthorized", headers)


def basic_auth():
    passwords = request.HTTPPasswordMgrWithDefaultRealm()
    passwords.add_password(None, "http://example.com/", "user", "password")
    opener = request.OpenerDirector()
    for handler in (_Unauthorized(b"Basic " + b"," * 20000),
                    request.HTTPBasicAuthHandler(passwords), request.HTTPDefaultErrorHandler()):
        opener.add_handler(handler)
    opener.open("http://example.com/")


def continue_headers():
    response(b"HTTP/1.1 100 Continue\r\n" + b"X-Line: v\r\n" * 1000000 + b"\r\n" + FINAL)


def interim_responses():
    response(b"HTTP/1.1 100 Continue\r\n\r\n" * 1000000 + FINAL)


def trailers():
    response(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n"
             + b"X-Trailer: t\r\n" * 1000000 + b"\r\n", read=True)


def content_length():
    response(b"HTTP/1.1 200 OK\r\nContent-Length: 4294967296\r\n\r\n" + b"x" * 1024, read=True)


def ipv6():
    import ipaddress
    ipaddress.IPv6Address(u"ab:" * 4000000)


def html_unclosed_tags():
    parser = html_parser.HTMLParser()
    parser.feed("<a " * 6000)
    parser.close()


def html_unclosed_comments():
    parser = html_parser.HTMLParser()
    parser.feed("<!--" * 24000)
    parser.close()


def html_fed_by_character():
    parser = html_parser.HTMLParser()
    for character in '<a href="' + "x" * 18000 + '">':
        parser.feed(character)
    parser.close()


def cookie_unquote():
    cookies._unquote('"' + "\\\\" * 80000 + '"')


def _http_errors():
    return (client.HTTPException,)


#: ``{case: (run, upstream's errors as a function of nothing, 2.7 has the module)}``.
CASES = {
    "email get_param": (email_param, tuple, True),
    "idna decode": (idna_decode, lambda: (UnicodeError,), True),
    "idna encode": (idna_encode, lambda: (UnicodeError,), True),
    "basic auth": (basic_auth, lambda: (request.HTTPError,), True),
    "headers after 100 Continue": (continue_headers, _http_errors, True),
    "100 Continue responses": (interim_responses, _http_errors, True),
    "trailer lines": (trailers, _http_errors, True),
    "Content-Length": (content_length, _http_errors, True),
    "IPv6 string": (ipv6, lambda: (ValueError,), False),
    "html unclosed tags": (html_unclosed_tags, tuple, True),
    "html unclosed comments": (html_unclosed_comments, tuple, True),
    "html fed by character": (html_fed_by_character, tuple, True),
    "cookie _unquote": (cookie_unquote, tuple, True),
}


def main(case):
    run, errors, on_27 = CASES[case]
    if PY2 and not on_27:
        outcome = "absent"
    else:
        set_limits()
        try:
            run()
            outcome = "returned"
        except errors() as exc:
            outcome = "raised " + type(exc).__name__
    print(json.dumps({"case": case, "outcome": outcome}))


if __name__ == "__main__":
    main(sys.argv[1])
