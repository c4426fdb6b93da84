"""The stdlib's basic-auth path without a network, as CPython's test_urllib2 drives it.

``MockPasswordManager``, ``MockHTTPHandler`` and :func:`retried_realm` follow
test_urllib2's ``MockPasswordManager``, ``MockHTTPHandlerRedirect`` and
``check_basic_auth``/``_test_basic_auth``: the first request gets a 401 with
the given headers, the handler asks the password manager for the realm it
read, and a second request carries the credentials. The 401's headers are
parsed as each interpreter parses a response's: ``http.client.parse_headers``
on 3.x, ``httplib.HTTPMessage`` on 2.7 (which joins repeated headers with
``", "``).
"""

import io
import sys
import warnings

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    import httplib
    import urllib2 as request
    from StringIO import StringIO

    def parse_headers(lines):
        return httplib.HTTPMessage(StringIO("".join(line + "\r\n" for line in lines) + "\r\n"))
else:
    import http.client as httplib
    import urllib.request as request

    def parse_headers(lines):
        data = "".join(line + "\r\n" for line in lines) + "\r\n"
        return httplib.parse_headers(io.BytesIO(data.encode("iso-8859-1")))

__all__ = ["request", "MockPasswordManager", "MockHTTPHandler", "retried_realm",
           "handler_outcome"]


class MockPasswordManager(object):
    def add_password(self, realm, uri, user, password):
        self.realm, self.url, self.user, self.password = realm, uri, user, password

    def find_user_password(self, realm, authuri):
        self.target_realm, self.target_url = realm, authuri
        return self.user, self.password


class _Response(io.BytesIO):
    def __init__(self, code, msg, headers, url):
        io.BytesIO.__init__(self, b"")
        self.code, self.msg, self.headers, self.url = code, msg, headers, url

    def info(self):
        return self.headers

    def geturl(self):
        return self.url


class MockHTTPHandler(request.BaseHandler):
    """A 401 (or 407) with *lines* first, then 200."""

    def __init__(self, code, lines):
        self.code, self.lines, self.requests = code, lines, []

    def http_open(self, req):
        self.requests.append((req.get_full_url(), dict(req.unredirected_hdrs)))
        if len(self.requests) == 1:
            return self.parent.error("http", req, io.BytesIO(b""), self.code,
                                     httplib.responses[self.code], parse_headers(self.lines))
        return _Response(200, "OK", parse_headers([]), req.get_full_url())


def retried_realm(lines, proxy=False):
    """``(realm the handler asked for or None, requests made, warnings)`` for a 401 (a 407
    through a proxy, with *proxy*) with header *lines*."""
    opener = request.OpenerDirector()
    manager = MockPasswordManager()
    if proxy:
        opener.add_handler(request.ProxyHandler({"http": "proxy.example.com:3128"}))
        handler = request.ProxyBasicAuthHandler(manager)
    else:
        handler = request.HTTPBasicAuthHandler(manager)
    http = MockHTTPHandler(407 if proxy else 401, lines)
    opener.add_handler(handler)
    opener.add_handler(http)
    handler.add_password(None, "http://acme.example.com/protected", "wile", "coyote")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            opener.open("http://acme.example.com/protected")
        except request.HTTPError as error:  # no retry: the 401 itself
            error.close()
    return (getattr(manager, "target_realm", None), len(http.requests),
            [(str(w.message), w.category.__name__) for w in caught])


def handler_outcome(header):
    """``(outcome, warnings)`` of ``http_error_auth_reqed`` on one *header*: the realm it
    retries with, None, or the error it raises (type and message)."""
    handler = request.HTTPBasicAuthHandler(MockPasswordManager())
    handler.retry_http_basic_auth = lambda host, req, realm: ("retry", realm)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome = handler.http_error_auth_reqed(
                "www-authenticate", "http://h/", None,
                parse_headers(["WWW-Authenticate: " + header]))
        except ValueError as error:
            outcome = (type(error).__name__, str(error))
    return outcome, [(str(w.message), w.category.__name__, w.filename) for w in caught]
