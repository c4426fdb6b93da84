"""CVE-2020-8492 (bpo-39503) and CVE-2021-3733 (bpo-43075): the basic-auth handler, patched.

Mirrors CPython's test_urllib2 ``HandlerTests.test_basic_auth`` as bpo-39503
rewrote it (one header of several challenges, several headers), its
unquoted-realm warning, ``test_proxy_basic_auth`` and
``test_unsupported_auth_basic_handler``, on a patched interpreter
(``force``: 3.x already has both fixes). 2.7 keeps 2.7's answers where they
differ from 3.x's: the last challenge naming a realm wins, and a challenge
of another scheme is not an error. Then the probes, on the real module and
on stand-ins holding each of the three patterns, and ``patch()``/``unpatch()``
by identity.
"""

import re
import sys
import types

import pytest

import auth_helpers as helpers
import urllib_request_backport
from urllib_request_backport import FIXED_RX

PY2 = sys.version_info[0] == 2
request = helpers.request
STOCK = request.AbstractBasicAuthHandler.__dict__

# test_urllib2's challenges (its realm2 is the same text as realm).
REALM = "realm2@example.com"
BASIC = 'Basic realm="%s"' % REALM
OTHER_NO_REALM = "Otherscheme xxx"
DIGEST = ('Digest realm="%s", qop="auth, auth-int", '
          'nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", '
          'opaque="5ccc069c403ebaf9f0171e9517f40e41"' % REALM)

ONE_HEADER = [
    'Basic realm="%s"' % REALM,
    "Basic realm='%s'" % REALM,
    'Basic realm="%s", charset="UTF-8"' % REALM,  # charset is ignored
    "%s, %s" % (BASIC, BASIC),  # multiple challenges per header
    "%s, %s" % (BASIC, OTHER_NO_REALM),
    "%s, %s" % (OTHER_NO_REALM, BASIC),
    "%s, %s" % (BASIC, DIGEST),
    "%s, %s" % (DIGEST, BASIC),
]
SEVERAL_HEADERS = [[BASIC, BASIC], [BASIC, DIGEST], [DIGEST, BASIC]]

CASES = ([["WWW-Authenticate: " + one] for one in ONE_HEADER]
         + [["WWW-Authenticate: " + each for each in several] for several in SEVERAL_HEADERS])

#: Where the last challenge naming a realm is Digest: 2.7 (stock and patched) does not
#: retry; 3.x takes the first Basic one. (2.7's httplib joins repeated headers.)
LAST_IS_DIGEST = [["WWW-Authenticate: %s, %s" % (BASIC, DIGEST)],
                  ["WWW-Authenticate: " + BASIC, "WWW-Authenticate: " + DIGEST]]

OLD_27 = '(?:.*,)*[ \t]*([^ \t]+)[ \t]+realm=(["\']?)([^"\']*)\\2'
BPO_39503 = '(?:^|,)[ \t]*([^ \t]+)[ \t]+realm=(["\']?)([^"\']*)\\2'


def _case_id(lines):
    return " | ".join(line.split(": ", 1)[1][:28] for line in lines)


@pytest.mark.parametrize("lines", CASES, ids=[_case_id(lines) for lines in CASES])
def test_cpython_basic_auth_challenges(lines):
    urllib_request_backport.patch(force=True)
    realm, requests, warned = helpers.retried_realm(lines)
    if PY2 and lines in LAST_IS_DIGEST:
        assert (realm, requests) == (None, 1)
    else:
        assert (realm, requests) == (REALM, 2)
    assert warned == []


@pytest.mark.parametrize("lines", CASES, ids=[_case_id(lines) for lines in CASES])
def test_cpython_challenges_get_the_stock_answer(lines):
    stock = helpers.retried_realm(lines)
    urllib_request_backport.patch(force=True)
    assert helpers.retried_realm(lines) == stock


def test_cpython_unquoted_realm_warns():
    urllib_request_backport.patch(force=True)
    realm, requests, warned = helpers.retried_realm(["WWW-Authenticate: Basic realm=" + REALM])
    assert (realm, requests) == (REALM, 2)
    assert warned == [("Basic Auth Realm was unquoted", "UserWarning")]


def test_cpython_proxy_basic_auth():
    urllib_request_backport.patch(force=True)
    lines = ['Proxy-Authenticate: Basic realm="ACME Networks"']
    realm, requests, warned = helpers.retried_realm(lines, proxy=True)
    assert (realm, requests, warned) == ("ACME Networks", 2, [])


def test_cpython_unsupported_auth_basic_handler():
    # 3.x (bpo-39503): a challenge of another scheme alone raises ValueError; 2.7's
    # handler finds no realm and returns None, patched as stock.
    urllib_request_backport.patch(force=True)
    outcome, warned = helpers.handler_outcome("NTLM")
    if PY2:
        assert outcome is None
    else:
        assert outcome == ("ValueError", "AbstractBasicAuthHandler does not support "
                                         "the following scheme: 'NTLM'")
    assert warned == []


def test_the_hostile_header_of_the_cve_is_answered():
    # 'basic ' + commas + NUL: a Basic challenge without a realm. The stock 2.7
    # pattern takes longer than the age of the universe here; patched, None, as 3.x.
    urllib_request_backport.patch()
    assert STOCK["rx"].search("a" * 64) is None  # the fixed pattern: the stock one is
    # not called from here on 2.7 (the handler is the patched one) nor on 3.x (fixed)
    assert not PY2 or STOCK["http_error_auth_reqed"].__module__.startswith("urllib_request")
    assert helpers.handler_outcome("basic " + "," * 30000 + "\x00") == (None, [])


def _stand_in(pattern):
    """A module whose ``AbstractBasicAuthHandler.rx`` is *pattern*."""
    module = types.ModuleType("stand_in")
    module.AbstractBasicAuthHandler = type("AbstractBasicAuthHandler", (object,),
                                           {"rx": re.compile(pattern, re.I)})
    return module


@pytest.mark.parametrize("pattern, search, rx", [
    (OLD_27, True, True),         # 2.7.18, 3.6.10 and older: both
    (BPO_39503, False, True),     # 3.6.11-3.6.13: the scheme may hold a comma
    (FIXED_RX.pattern, False, False),
])
def test_the_probes_read_each_pattern(pattern, search, rx):
    from urllib_request_backport import _basic_auth, _basic_auth_rx
    module = _stand_in(pattern)
    assert (_basic_auth.needs_fix(module), _basic_auth_rx.needs_fix(module)) == (search, rx)


def test_the_probes_on_this_interpreter():
    # 2.7.18 lacks both fixes; 3.6.15 and later carry both; is_vulnerable() covers data:
    from urllib_request_backport import _basic_auth, _basic_auth_rx
    assert _basic_auth.needs_fix(request) is PY2
    assert _basic_auth_rx.needs_fix(request) is PY2
    assert urllib_request_backport.is_vulnerable() is True  # 2.7: auth; 3.x: data: URLs


def test_the_probe_reads_the_stock_module_while_patched():
    urllib_request_backport.patch(force=True)
    assert urllib_request_backport.is_vulnerable() is True
    fixes = urllib_request_backport.status()["fixes"]
    assert fixes["CVE-2020-8492"]["lacks"] is PY2
    assert fixes["CVE-2021-3733"]["lacks"] is PY2
    assert not any(each["exposed"] for each in fixes.values())


def test_patch_binds_the_class_and_unpatch_restores_it_by_identity():
    stock_rx, stock_handler = STOCK["rx"], STOCK["http_error_auth_reqed"]
    module = request.__name__
    report = urllib_request_backport.patch()
    names = [module + ".AbstractBasicAuthHandler.http_error_auth_reqed",
             module + ".AbstractBasicAuthHandler.rx"]
    if PY2:
        assert sorted(label for label in report.changed if "Auth" in label) == names
        assert STOCK["rx"] is not stock_rx
        assert STOCK["rx"].pattern == FIXED_RX.pattern + "(?#bpo-43075)"
        handler = STOCK["http_error_auth_reqed"]
        assert handler is not stock_handler
        assert (handler.__name__, handler.__doc__) == (stock_handler.__name__,
                                                       stock_handler.__doc__)
    else:  # the stock class has both fixes: left alone unless forced
        assert not [label for label in report.changed if "Auth" in label]
        assert STOCK["rx"] is stock_rx and STOCK["http_error_auth_reqed"] is stock_handler
        urllib_request_backport.unpatch()
        report = urllib_request_backport.patch(force=True)
        assert sorted(label for label in report.changed if "Auth" in label) == names
        handler = STOCK["http_error_auth_reqed"]
        assert handler is not stock_handler and handler.__code__ is stock_handler.__code__
        assert handler.__qualname__ == stock_handler.__qualname__
    assert urllib_request_backport.is_patched()
    back = urllib_request_backport.unpatch()
    assert sorted(label for label in back.changed if "Auth" in label) == names
    assert STOCK["rx"] is stock_rx and STOCK["http_error_auth_reqed"] is stock_handler
    assert not urllib_request_backport.is_patched()


def test_a_second_patch_returns_the_first_report():
    first = urllib_request_backport.patch(force=True)
    assert urllib_request_backport.patch(force=True) is first


def test_subclasses_get_the_fixed_handler_through_the_class():
    urllib_request_backport.patch(force=True)
    for cls in (request.HTTPBasicAuthHandler, request.ProxyBasicAuthHandler):
        assert cls.http_error_auth_reqed is not None
        assert cls.rx is STOCK["rx"]
        own = getattr(cls.http_error_auth_reqed, "__func__", cls.http_error_auth_reqed)
        assert own is STOCK["http_error_auth_reqed"]
