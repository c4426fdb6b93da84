"""A real Pyramid app on Python 3: the WebOb adapter protects ``request.GET`` (issue 7).

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
from stdlib_state import UNFIXED

from fresh_interpreter import ATTACK, run_json

pytestmark = pytest.mark.skipif(
    sys.version_info[0] == 2,
    reason="2.7: WebOb uses urlparse.parse_qsl (tests/test_frameworks_stdlib.py)")

ORDERS = ["framework-first", "patch-first"]

APP = """
import json, sys, warnings
ATTACK = %(attack)r

with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    import webob, webob.compat, webob.request
    from pyramid.config import Configurator


def fields(multidict):
    return {'q': multidict.getall('q'), 'utm_content': multidict.get('utm_content')}


def view(request):
    return {'GET': fields(request.GET), 'POST': fields(request.POST)}


with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    config = Configurator()
    config.add_route('search', '/search')
    config.add_view(view, route_name='search', renderer='json')
    app = config.make_wsgi_app()


def serve():
    got = webob.Request.blank('/search?' + ATTACK).get_response(app)
    posted = webob.Request.blank('/search', POST=ATTACK).get_response(app)
    return {'GET': json.loads(got.text)['GET'], 'POST': json.loads(posted.text)['POST']}
"""

SCRIPT = """
import sys
ORDER, STDLIB = sys.argv[1], sys.argv[2]
import urllib.parse
if STDLIB == 'vulnerable-stdlib' and len(urllib.parse.parse_qsl('a=1;b=2')) == 1:
    # Stand-in for a 3.x stdlib without the CVE-2021-23336 fix: splits on both
    # (not needed in a py3X-unfixed environment, whose stdlib is one).
    _fixed = urllib.parse.parse_qsl

    def parse_qsl(qs, keep_blank_values=False, strict_parsing=False, encoding='utf-8',
                  errors='replace', max_num_fields=None, separator='&'):
        return _fixed(qs.replace(';', '&'), keep_blank_values, strict_parsing,
                      encoding, errors, max_num_fields, separator)

    urllib.parse.parse_qsl = parse_qsl
report = None
if ORDER == 'patch-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)
%(app)s
# patch-first: the post-import hook fixed webob.compat as it was imported,
# so this is the replacement.
# Kept in a dict, out of reach of patch()'s scan of module namespaces.
saved = {'parser': webob.compat.parse_qsl_text,
         'code': webob.compat.parse_qsl_text.__code__}
if ORDER == 'framework-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)
result = {'seen': serve(), 'changed': report.changed if report else []}
if report is not None:
    urllib_parse_backport.unpatch()
    result['after_unpatch'] = serve()
    restored = webob.compat.parse_qsl_text
    result['identical'] = (webob.request.parse_qsl_text is restored
                           and restored.__module__ == 'webob.compat'
                           and restored.__code__.co_filename.endswith('compat.py'))
    if ORDER == 'framework-first':
        result['identical'] = result['identical'] and (
            restored is saved['parser'] and restored.__code__ is saved['code'])
print(json.dumps(result))
"""

#: Which parser each request reaches: spies on WebOb's and the stdlib's.
TRACE = """
import urllib.parse
%(app)s
calls = []


def spy(name, parser):
    def spying(*args, **kwargs):
        calls.append([name, kwargs.get('separator')])
        return parser(*args, **kwargs)
    return spying


urllib.parse.parse_qsl = spy('urllib.parse.parse_qsl', urllib.parse.parse_qsl)
webob.request.parse_qsl_text = spy('webob.compat.parse_qsl_text',
                                   webob.request.parse_qsl_text)
webob.Request.blank('/search?' + ATTACK).get_response(app)
result = {'GET': calls[:]}
del calls[:]
webob.Request.blank('/search', POST=ATTACK).get_response(app)
result['POST'] = calls[:]
print(json.dumps(result))
"""

SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": "s"}
SAFE = {"q": ["common_term"], "utm_content": "s;q=malicious_term"}
#: What an urlencoded body gives without the stdlib target: the stdlib parses it.
BODY_WITHOUT_SHIM = SMUGGLED if UNFIXED else SAFE


def _run(script, *args):
    pytest.importorskip("pyramid")
    return run_json(script % {"attack": ATTACK, "app": APP % {"attack": ATTACK}}, args)


def run_app(order, stdlib="real-stdlib"):
    return _run(SCRIPT, order, stdlib)


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
    calls = _run(TRACE)
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
