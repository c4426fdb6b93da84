"""What the tests of python-future's copies share (tests/test_stdlib_copies*.py).

python-future 1.0.0 vendors 3.3's stdlib modules as ``future.backports``; 3.13
can no longer import some of them (``re`` refuses their inline flags, ``uu``
is gone): a test of such a copy skips there.
"""

import sys

import pytest

import email_backport
import html_parser_backport
import http_client_backport
import http_cookies_backport
import urllib_parse_backport
import urllib_request_backport
from dependencies import missing

COOKIES_COPY = "future.backports.http.cookies"
CLIENT_COPY = "future.backports.http.client"
REQUEST_COPY = "future.backports.urllib.request"
#: The packages whose fixes the registry applies to python-future's copies.
PACKAGES = (http_cookies_backport, http_client_backport, urllib_request_backport,
            email_backport, html_parser_backport, urllib_parse_backport)


def copy_of(name):
    """python-future's copy *name*; a skip where its 3.3 code does not import."""
    try:
        __import__(name)
    except Exception as exc:
        missing(name, "%s: %s" % (type(exc).__name__, exc))
    return sys.modules[name]


@pytest.fixture(autouse=True, scope="module")
def copies_forgotten():
    """The copies a test file imports leave ``sys.modules`` with it: the other tests read
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
