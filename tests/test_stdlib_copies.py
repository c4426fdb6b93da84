"""Copies of stdlib modules inside packages: python-future's ``future.backports``.

python-future 1.0.0 vendors 3.3's ``http.cookies``, ``http.client`` and
``urllib.request`` (on 2.7 and 3.x alike; 3.13 can no longer import them):
each keeps the CVEs its stdlib original had. The registry lists them as the
rows' ``copies``, and the engine applies each fix to them as to the stdlib
module. Mirrored here: CPython's test_http_cookies ``test_control_characters``
(gh-143919, CVE-2026-0672), test_httplib ``test_invalid_method_names``
(bpo-39603, CVE-2020-26116), gh-150743's trailer bound, and the basic-auth
handler's work at n and 4n (bpo-39503, CVE-2020-8492), on the copies.
tests/test_stdlib_copies_report.py: what the check, ``status()`` and
``unpatch()`` say of them, and the start-up switch.
"""

import io
import sys
import time
import warnings

import pytest

import http_client_backport
import http_cookies_backport
import urllib_request_backport
from stdlib_copies import (CLIENT_COPY, COOKIES_COPY, REQUEST_COPY, copy_of,  # noqa: F401
                           copies_forgotten, unpatched)

COOKIES = "Cookie" if sys.version_info[0] == 2 else "http.cookies"

_cpu = getattr(time, "process_time", None) or time.clock  # 2.7: clock() is CPU time


# -- CVE-2026-0672 (gh-143919): the copy's Morsel --------------------------------------

def _stored_around_the_setters(module):
    cookie = module.SimpleCookie()
    cookie["a"] = "b"
    dict.__setitem__(cookie["a"], "path", "/\r\nX-Injected: 1")
    return cookie.output()


#: test_http_cookies' ``test_control_characters``: each way a control character gets in.
HOSTILE_COOKIES = {
    "attribute": lambda module: module.Morsel().__setitem__("path", "/\r\nX-Injected: 1"),
    "value": lambda module: module.Morsel().set("a", "b\nX: 1", "b"),
    "coded value": lambda module: module.Morsel().set("a", "b", "b\x00"),
    "output": _stored_around_the_setters,
}


def refuses(module, call):
    try:
        call(module)
    except module.CookieError:
        return True
    return False


def honest_cookie(module):
    cookie = module.SimpleCookie()
    cookie["session"] = "abc"
    cookie["session"]["path"] = "/"
    cookie["session"]["httponly"] = True
    return cookie.output()


@pytest.mark.parametrize("way", sorted(HOSTILE_COOKIES))
def test_the_cookie_copy_refuses_what_the_patched_stdlib_refuses(way):
    copy = copy_of(COOKIES_COPY)
    stock = __import__(COOKIES, None, None, ("Morsel",))
    before = honest_cookie(copy)
    http_cookies_backport.patch(force=True)
    assert refuses(stock, HOSTILE_COOKIES[way])
    assert refuses(copy, HOSTILE_COOKIES[way])
    assert honest_cookie(copy) == before


# -- CVE-2020-26116 (bpo-39603): the copy's HTTPConnection ------------------------------

#: test_httplib's ``test_invalid_method_names``.
METHODS = ["GET\r", "POST\n", "PUT\n\r", "POST\nValue", "POST\nHOST:abc", "GET\nrHost:abc\n",
           "POST\rRemainder:\r", "GET\rHOST:\n", "\nPUT"]


def honest_request_line(module):
    connection = module.HTTPConnection("example.com")
    connection.putrequest("PROPFIND", "/x", skip_host=True, skip_accept_encoding=True)
    return list(connection._buffer)


@pytest.mark.parametrize("method", METHODS, ids=[repr(method) for method in METHODS])
def test_the_client_copy_refuses_a_control_character_in_the_method(method):
    copy = copy_of(CLIENT_COPY)
    before = honest_request_line(copy)
    http_client_backport.patch()
    with pytest.raises(ValueError) as raised:
        copy.HTTPConnection("example.com").putrequest(method, "/", skip_host=True)
    assert str(raised.value).startswith("method can't contain control characters. %r"
                                        % (method,))
    assert honest_request_line(copy) == before


class _Socket(object):
    """A socket whose responses are *data*; what is sent goes nowhere."""

    def __init__(self, data):
        self.data = data

    def makefile(self, *args, **kwargs):
        return io.BytesIO(self.data)

    def sendall(self, data):
        pass


def _read(module, data):
    """The body of the response *data* as *module*'s client reads it, or its error."""
    connection = module.HTTPConnection("example.com")
    connection.sock = _Socket(data)
    connection.request("GET", "/")
    response = connection.getresponse()
    try:
        return response.read()
    except module.HTTPException as exc:
        return str(exc)


CHUNKED = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n"


def test_the_client_copy_reads_responses_as_before_and_bounds_the_trailer():
    # gh-150743's bound on trailer lines; every response goes through the fixed begin()
    # (bpo-44022, gh-150743): on 2.7 the copy's responses keep no __dict__ attribute.
    copy = copy_of(CLIENT_COPY)
    honest = CHUNKED + b"X: y\r\n\r\n"
    before = _read(copy, honest)
    http_client_backport.patch()
    assert _read(copy, honest) == before == b"abc"
    assert _read(copy, CHUNKED + b"X: y\r\n" * 101 + b"\r\n") == "got more than 100 trailers"


# -- CVE-2020-8492 (bpo-39503): the copy's basic-auth handler --------------------------

def _handler_call(copy):
    handler = copy.HTTPBasicAuthHandler()
    handler.retry_http_basic_auth = lambda host, req, realm: None

    def call(header):
        handler.retried = 0  # 3.3's handler counts its calls; each is a first one here
        return handler.http_error_auth_reqed("www-authenticate", "http://h/", None,
                                             {"www-authenticate": header})
    return call


def _spent(function, text, repeat=3):
    best = None
    for _ in range(repeat):
        start = _cpu()
        function(text)
        spent = _cpu() - start
        best = spent if best is None else min(best, spent)
    return max(best, 1e-6)


def growth(function, make, n):
    """CPU time of ``function(make(4 * n))`` over ``function(make(n))``: about 4 when linear
    (the measure of tests/test_urllib_request_backport/test_basic_auth_properties.py)."""
    return _spent(function, make(4 * n)) / _spent(function, make(n))


def the_cves_header(n):
    return "basic " + "," * n + "\x00"


def test_the_request_copy_handler_work_grows_linearly():
    copy = copy_of(REQUEST_COPY)
    urllib_request_backport.patch()
    call = _handler_call(copy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # 4 commas against 16: the stock copy's pattern does 2 ** 12 times the work.
        assert growth(call, the_cves_header, 4) < 4 * 2.5
        assert growth(call, the_cves_header, 40000) < 4 * 2.5


HONEST = ['Basic realm="x"', "Basic realm='x'", 'Basic realm="a", charset="UTF-8"',
          'Basic realm="a", Digest realm="b"', 'Digest realm="b", Basic realm="a"',
          "Basic realm=unquoted", "Otherscheme xxx"]


def _answers(copy):
    """For each honest header: the realm the copy's handler retries with, or its error,
    and the warnings it gives."""
    found = []
    for header in HONEST:
        asked = []
        handler = copy.HTTPBasicAuthHandler()
        handler.retry_http_basic_auth = lambda host, req, realm: asked.append(realm)
        with warnings.catch_warnings(record=True) as warned:
            warnings.simplefilter("always")
            try:
                handler.http_error_auth_reqed("www-authenticate", "http://h/", None,
                                              {"www-authenticate": header})
                outcome = ("asked", asked)
            except ValueError as exc:
                outcome = ("ValueError", str(exc))
        found.append((outcome, [str(each.message) for each in warned]))
    return found


def test_the_request_copy_answers_honest_challenges_as_before_and_is_patched():
    copy = copy_of(REQUEST_COPY)
    before = _answers(copy)
    report = urllib_request_backport.patch()
    assert _answers(copy) == before
    assert REQUEST_COPY + ".AbstractBasicAuthHandler.http_error_auth_reqed" in report.changed
