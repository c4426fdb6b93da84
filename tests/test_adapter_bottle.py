"""Bottle adapter (issue 7): ``bottle._parse_qsl`` split on ``[&;]`` until 0.12.19.

Bottle 0.12.18 is pinned where it runs (2.7, 3.6-3.10; it imports
``inspect.getargspec``, gone in 3.11); fixed releases elsewhere (0.12.25 on
3.11-3.12, 0.13.2 on 3.13, where ``cgi`` is gone), to see the adapter leave
them alone. Requests go
through a real ``bottle.Bottle`` app called as a WSGI app, each scenario in a
fresh interpreter: no adapter, Bottle imported before or after ``patch(frameworks=True)``.
"""


import pytest

from fresh_interpreter import ATTACK, run_json

bottle = pytest.importorskip("bottle")

VULNERABLE = tuple(int(part) for part in bottle.__version__.split(".")[:3]) < (0, 12, 19)

SCRIPT = r"""
import io, json, sys
from wsgiref.util import setup_testing_defaults
ORDER = sys.argv[1]
ATTACK = %(attack)r

def call(app, method, query='', body=b''):
    environ = {'REQUEST_METHOD': method, 'PATH_INFO': '/search', 'QUERY_STRING': query,
               'CONTENT_TYPE': 'application/x-www-form-urlencoded',
               'CONTENT_LENGTH': str(len(body)), 'wsgi.input': io.BytesIO(body)}
    setup_testing_defaults(environ)
    chunks = app(environ, lambda status, headers, exc_info=None: None)
    return json.loads(b''.join(chunks).decode('utf-8'))

report = None
if ORDER == 'patch-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)
import bottle
original = bottle._parse_qsl
original_code = original.__code__
if ORDER == 'framework-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)

app = bottle.Bottle()

@app.route('/search', method=['GET', 'POST'])
def search():
    fields = bottle.request.query if bottle.request.method == 'GET' else bottle.request.forms
    bottle.response.content_type = 'application/json'
    return json.dumps({'q': fields.getall('q'), 'utm_content': fields.get('utm_content')})

def serve():
    return {'query': call(app, 'GET', query=ATTACK),
            'body': call(app, 'POST', body=ATTACK.encode('ascii'))}

result = {'seen': serve()}
if report is not None:  # a report that changed nothing is false
    result.update(changed=report.changed, skipped=dict(report.skipped))
if report is not None:
    urllib_parse_backport.unpatch()
    result['after_unpatch'] = serve()
    restored = bottle._parse_qsl
    result['identical'] = (restored.__module__ == 'bottle'
                           and restored.__code__.co_filename.endswith(('bottle.py', 'bottle.pyc')))
    if ORDER == 'framework-first':  # patch-first: 'original' is the replacement
        result['identical'] = result['identical'] and (
            restored is original and original.__code__ is original_code)
print(json.dumps(result))
"""

SAFE = {"q": ["common_term"], "utm_content": "s;q=malicious_term"}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": "s"}


def run_app(order, **environ):
    return run_json(SCRIPT % {"attack": ATTACK}, [order], **environ)


vulnerable_only = pytest.mark.skipif(not VULNERABLE, reason="Bottle >= 0.12.19 is fixed")
fixed_only = pytest.mark.skipif(VULNERABLE, reason="Bottle <= 0.12.18 splits on ';'")


@vulnerable_only
def test_without_the_adapter_bottle_sees_the_smuggled_value():
    seen = run_app("no-adapter")["seen"]
    assert seen == {"query": SMUGGLED, "body": SMUGGLED}


@vulnerable_only
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_with_the_adapter_bottle_sees_the_cached_value(order):
    result = run_app(order)
    assert result["seen"] == {"query": SAFE, "body": SAFE}
    assert "bottle._parse_qsl" in result["changed"]
    assert "bottle._parse_qsl (in place)" in result["changed"]


@vulnerable_only
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_unpatch_restores_the_original_parser(order):
    result = run_app(order)
    assert result["identical"] is True
    assert result["after_unpatch"] == {"query": SMUGGLED, "body": SMUGGLED}


@vulnerable_only
def test_legacy_policy_keeps_the_split_on_both():
    result = run_app("framework-first", PYTHON_URLLIB_QS_SEPARATOR="legacy")
    assert result["seen"] == {"query": SMUGGLED, "body": SMUGGLED}


@fixed_only
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_a_fixed_bottle_is_left_alone_and_reported(order):
    result = run_app(order)
    assert result["skipped"]["bottle"] == "already splits on '&' only"
    assert not [name for name in result["changed"] if name.startswith("bottle")]
    assert result["seen"] == {"query": SAFE, "body": SAFE}
