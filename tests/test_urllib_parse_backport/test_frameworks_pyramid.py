"""A real Pyramid app on Python 3: the WebOb adapter protects ``request.GET``.

Pyramid parses nothing itself: its requests are WebOb's, whose own 3.x
query parser (``webob.compat.parse_qsl_text``) splits on ``[&;]``. Urlencoded
bodies take another path: ``request.POST`` reads them with
``cgi.FieldStorage`` (``legacy-cgi`` on 3.13), which calls the stdlib's
``urllib.parse.parse_qsl`` with ``separator='&'``, so the adapter never sees
them; a fixed stdlib (or ``patch()``'s stdlib target) is what protects them.
On 2.7, WebOb forwards both to ``urlparse.parse_qsl``, which the stdlib shim
covers (Pyramid 1.10 in tests/test_frameworks_stdlib.py).
"""

import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run_scenario
from stdlib_state import UNFIXED

pytestmark = pytest.mark.skipif(
    sys.version_info[0] == 2,
    reason="2.7: WebOb uses urlparse.parse_qsl (tests/test_frameworks_stdlib.py)")

ORDERS = ["framework-first", "patch-first"]


#: Which parser each request reaches: spies on WebOb's and the stdlib's.

SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": "s"}
SAFE = {"q": ["common_term"], "utm_content": "s;q=malicious_term"}


#: What an urlencoded body gives without the stdlib target: the stdlib parses it.
BODY_WITHOUT_SHIM = SMUGGLED if UNFIXED else SAFE


def run_app(order, stdlib="real-stdlib"):
    importorskip("pyramid")
    return run_scenario("pyramid_adapter", [order, stdlib])


def test_without_the_adapter_pyramid_sees_the_smuggled_query_value():
    seen = run_app("no-adapter")["seen"]
    assert seen["GET"] == SMUGGLED
    # The body goes to the stdlib's parser (fixed, except in py3X-unfixed).
    assert seen["POST"] == BODY_WITHOUT_SHIM


@pytest.mark.parametrize("order", ORDERS)
def test_with_the_adapter_pyramid_sees_the_cached_value(order):
    result = run_app(order)
    assert result["seen"] == {"GET": SAFE, "POST": SAFE}
    assert "webob.compat.parse_qsl_text" in result["changed"]
    assert "webob.compat.parse_qsl_text (in place)" in result["changed"]
    # patch-first: the hook fixed webob.compat right after its import, before
    # webob.request bound the name, so there was no alias to rebind.
    alias_rebound = "webob.request.parse_qsl_text" in result["changed"]
    assert alias_rebound is (order == "framework-first")


@pytest.mark.parametrize("order", ORDERS)
def test_unpatch_restores_the_original_parser(order):
    result = run_app(order)
    assert result["identical"] is True
    assert result["after_unpatch"] == {"GET": SMUGGLED, "POST": BODY_WITHOUT_SHIM}


def test_urlencoded_bodies_bypass_webobs_query_parser():
    # What the adapter reaches (parse_qsl_text) parses the query only; the
    # body goes to cgi.FieldStorage -> urllib.parse.parse_qsl(separator='&').
    importorskip("pyramid")
    calls = run_scenario("pyramid_trace")
    assert calls["GET"] == [["webob.compat.parse_qsl_text", None]]
    # An unfixed cgi passes no separator.
    assert calls["POST"] == [["urllib.parse.parse_qsl", None if UNFIXED else "&"]]


def test_bodies_on_an_unfixed_stdlib_need_the_stdlib_target():
    # The adapter alone would not protect bodies on a 3.x stdlib without the
    # fix; patch(frameworks=True) also patches the stdlib, which does.
    assert run_app("no-adapter", "vulnerable-stdlib")["seen"] == {
        "GET": SMUGGLED, "POST": SMUGGLED}
    for order in ORDERS:
        result = run_app(order, "vulnerable-stdlib")
        assert result["seen"] == {"GET": SAFE, "POST": SAFE}
        assert "urllib.parse.parse_qsl" in result["changed"]
