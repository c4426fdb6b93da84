"""Copies of stdlib modules inside packages: python-future's ``future.backports``.

python-future 1.0.0 vendors 3.3's ``http.cookies``, ``http.client`` and
``urllib.request`` (on 2.7 and 3.x alike; 3.13 can no longer import them):
each keeps the CVEs its stdlib original had. The registry lists them as the
rows' ``copies``, and the engine applies each fix to them as to the stdlib
module. Mirrored here: CPython's test_http_cookies ``test_control_characters``
(gh-143919, CVE-2026-0672), test_httplib ``test_invalid_method_names``
(bpo-39603, CVE-2020-26116), and the basic-auth handler's work at n and 4n
(bpo-39503, CVE-2020-8492), on the copies; then what the check says, and
``unpatch()``.
"""

import io
import os
import sys
import time
import warnings

import pytest

import email_backport
import html_parser_backport
import http_client_backport
import http_cookies_backport
import urllib_parse_backport
import urllib_request_backport
from dependencies import missing
from fresh_interpreter import run, run_code, run_json
from internals import shared_check

COOKIES = "Cookie" if sys.version_info[0] == 2 else "http.cookies"
COOKIES_COPY = "future.backports.http.cookies"
CLIENT_COPY = "future.backports.http.client"
REQUEST_COPY = "future.backports.urllib.request"
PACKAGES = (http_cookies_backport, http_client_backport, urllib_request_backport,
            email_backport, html_parser_backport)
CHECK = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")

_cpu = getattr(time, "process_time", None) or time.clock  # 2.7: clock() is CPU time


def copy_of(name):
    """python-future's copy *name*; a skip where its 3.3 code does not import (3.13:
    ``re`` refuses its inline flags, ``uu`` is gone)."""
    try:
        __import__(name)
    except Exception as exc:
        missing(name, "%s: %s" % (type(exc).__name__, exc))
    return sys.modules[name]


@pytest.fixture(autouse=True, scope="module")
def copies_forgotten():
    """The copies this file imports leave ``sys.modules`` with it: the other tests read
    the stdlib modules' reports and states alone."""
    before = set(sys.modules)
    yield
    for package in PACKAGES:
        package.unpatch()
    for name in set(sys.modules) - before:
        if name.startswith("future.backports."):
            del sys.modules[name]


@pytest.fixture(autouse=True)
def unpatched():
    for package in PACKAGES:
        package.unpatch()
    yield
    for package in PACKAGES:
        package.unpatch()


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


# -- a fix the copy's code does not fit ---------------------------------------------------

def parsed(module):
    found = []

    class Parser(module.HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, attrs))

        def handle_data(self, data):
            found.append(data)
    parser = Parser()
    for piece in ('<a href="x">t', "ext</a><!-- c", "omment --><b"):
        parser.feed(piece)
    parser.close()
    return found


def test_a_copy_a_fix_does_not_fit_is_left_as_it_is_and_reported_exposed():
    # Both html.parser fixes rewrite 3.4+'s loop (convert_charrefs); the copy is 3.3's.
    copy = copy_of("future.backports.html.parser")
    before, own = parsed(copy), dict(copy.HTMLParser.__dict__)
    report = html_parser_backport.patch()
    assert (parsed(copy), dict(copy.HTMLParser.__dict__)) == (before, own)
    skipped = report.as_dict()["skipped"]
    assert [entry["kind"] for entry in skipped if entry["target"] == copy.__name__] == [
        "failure", "failure"]
    for cve in ("CVE-2025-6069", "CVE-2026-15308"):
        entry = html_parser_backport.status()["fixes"][cve]["copies"][copy.__name__]
        assert entry["exposed"] and entry["state"].startswith("not patched: ")


def test_the_email_copy_gets_the_parameter_fix_in_its_own_shape():
    # 2.7: python-future's _parseparam is 3.x's (it makes the value text itself).
    copy = copy_of("future.backports.email.message")
    message = copy.Message()
    message["Content-Type"] = 'text/plain; charset="utf-8"; name="a;b"; x'
    before = message.get_params()
    report = email_backport.patch()
    assert copy.__name__ + "._parseparam" in report.changed
    assert message.get_params() == before


def test_the_urllib_parse_copy_is_exposed_by_its_urlsplit_only():
    # The shim rewrites the copy's parse_qsl (CVE-2021-23336); no patch() replaces a
    # copy's urlsplit, which lacks the four later fixes.
    copy = copy_of("future.backports.urllib.parse")
    urllib_parse_backport.patch()
    try:
        fixes = urllib_parse_backport.status()["fixes"]
    finally:
        urllib_parse_backport.unpatch()
    assert fixes["CVE-2021-23336"]["copies"][copy.__name__]["exposed"] is False
    for cve in ("CVE-2023-24329", "CVE-2022-0391", "CVE-2024-11168", "CVE-2025-0938"):
        entry = fixes[cve]["copies"][copy.__name__]
        assert entry["exposed"] and entry["state"].startswith("not patched: ")
        assert fixes[cve]["exposed"]


# -- the check and unpatch() ------------------------------------------------------------

def _check_line(cve):
    check = shared_check()
    lines = check.render(check.collect()).splitlines()
    return [line for line in lines if line.startswith(cve + ":")][0]


def test_the_check_names_an_imported_copy_that_is_not_patched():
    copy_of(COOKIES_COPY)
    line = _check_line("CVE-2026-0672")
    assert line.split()[1] == "EXPOSED"
    assert line.endswith("; exposed copy: %s)" % COOKIES_COPY)
    http_cookies_backport.patch()
    assert "exposed copy" not in _check_line("CVE-2026-0672")


def test_status_lists_the_copy_under_its_fix():
    copy_of(CLIENT_COPY)
    entry = http_client_backport.status()["fixes"]["CVE-2020-26116"]
    assert entry["copies"][CLIENT_COPY] == {"lacks": True, "exposed": True,
                                            "state": "not patched"}
    assert http_client_backport.status()["exposed"]
    http_client_backport.patch()
    entry = http_client_backport.status()["fixes"]["CVE-2020-26116"]
    assert entry["copies"][CLIENT_COPY] == {"lacks": True, "exposed": False,
                                            "state": "patched"}


def test_unpatch_restores_the_copies_by_identity():
    places = [(copy_of(COOKIES_COPY).Morsel, "__setitem__"),
              (copy_of(CLIENT_COPY).HTTPConnection, "putrequest"),
              (copy_of(REQUEST_COPY).AbstractBasicAuthHandler, "http_error_auth_reqed")]
    before = [cls.__dict__[name] for cls, name in places]
    three = (http_cookies_backport, http_client_backport, urllib_request_backport)
    for package in three:
        report = package.patch()
        assert [name for name in report.changed if name.startswith("future.backports.")]
    assert [cls.__dict__[name] for cls, name in places] != before
    for package in three:
        package.unpatch()
    assert all(cls.__dict__[name] is old for (cls, name), old in zip(places, before))


# -- the start-up switch, in fresh interpreters ------------------------------------------

#: Each copy's hostile call, in a process of its own: "refused", "accepted" or "no copy".
APP = """
import json
found = {}
try:
    from future.backports.http import cookies
except Exception:
    found["cookies"] = "no copy"
else:
    try:
        cookies.Morsel()["path"] = "/\\r\\nX-Injected: 1"
        found["cookies"] = "accepted"
    except cookies.CookieError:
        found["cookies"] = "refused"
try:
    from future.backports.http import client
except Exception:
    found["client"] = "no copy"
else:
    try:
        client.HTTPConnection("example.com").putrequest("GET\\r\\nX: 1", "/", skip_host=True)
        found["client"] = "accepted"
    except ValueError:
        found["client"] = "refused"
print(json.dumps(found))
"""

CVES = {"cookies": "CVE-2026-0672", "client": "CVE-2020-26116", "request": "CVE-2020-8492"}
NAMES = {"cookies": COOKIES_COPY, "client": CLIENT_COPY, "request": REQUEST_COPY}


def _importable(name):
    code, out, err = run_code("import %s" % name)
    return code == 0


def test_the_switch_patches_each_copy_when_the_application_imports_it():
    found = run_json(APP, CPYTHON_SECURITY_PATCH="1", quiet=True)
    unpatched = run_json(APP, quiet=True)
    for copy in ("cookies", "client"):
        if _importable(NAMES[copy]):
            assert (unpatched[copy], found[copy]) == ("accepted", "refused")
        else:
            assert found[copy] == "no copy"


#: ``patch()`` first, the copy imported after: the engine's hook patches it then.
LATER = """
import json, sys
import http_cookies_backport
http_cookies_backport.patch()
before = "future.backports.http.cookies" in sys.modules
try:
    from future.backports.http import cookies
except Exception:
    print(json.dumps([before, "no copy"]))
    raise SystemExit
def stores():
    try:
        cookies.Morsel()["path"] = "/\\r\\nX-Injected: 1"
        return "accepted"
    except cookies.CookieError:
        return "refused"
patched = stores()
http_cookies_backport.unpatch()
print(json.dumps([before, patched, stores()]))
"""


def test_a_copy_imported_after_patch_is_patched_then_and_unpatch_restores_it():
    found = run_json(LATER, quiet=True)
    if _importable(COOKIES_COPY):
        assert found == [False, "refused", "accepted"]
    else:
        assert found == [False, "no copy"]


def _verdicts(**environ):
    code, out, err = run([CHECK], **environ)
    return dict((line.split(":")[0], line) for line in out.splitlines()
                if line.startswith(tuple(CVES.values())))


def test_the_check_names_each_copy_the_switch_leaves_exposed():
    bare, switched = _verdicts(), _verdicts(CPYTHON_SECURITY_PATCH="1")
    for copy, cve in sorted(CVES.items()):
        assert switched[cve].split()[1] == "safe", switched[cve]
        if _importable(NAMES[copy]):
            assert bare[cve].split()[1] == "EXPOSED"
            assert bare[cve].endswith("; exposed copy: %s)" % NAMES[copy])
