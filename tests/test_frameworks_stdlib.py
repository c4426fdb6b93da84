"""Real frameworks, real requests: what the app sees for the attack query (issue 4).

Each scenario runs in a fresh interpreter: the framework imported before
``patch()``, after it, or no shim at all. On 2.7.18 (vulnerable stdlib) the
unpatched scenario must show the smuggled value, so the others prove the
shim. On a fixed 3.x stdlib the patched scenarios force the shim and check
nothing breaks; in the py3X-unfixed environments they must work unforced
(tests/stdlib_state.py). WebOb/Pyramid run on 2.7 only: on 3.x WebOb
parses query strings itself, which this shim does not claim; the WebOb adapter
does (issue 7: test_frameworks_adapters.py, test_adapter_pyramid.py).
"""

import json
import subprocess
import sys

import pytest
from stdlib_state import FORCE, UNFIXED

PY2 = sys.version_info[0] == 2
ATTACK = "q=common_term&utm_content=s;q=malicious_term"

#: Each app prints {"q": <value the app reads>, "q_all": [...], "utm_content": ...}.
APPS = {
    "webob": """
import webob
def serve():
    request = webob.Request.blank('/search?' + ATTACK)
    return request.GET['q'], request.GET.getall('q'), request.GET['utm_content']
""",
    "pyramid": """
from pyramid.config import Configurator
import webob
def view(request):
    return {'q': request.params['q'], 'q_all': request.GET.getall('q'),
            'utm_content': request.params['utm_content']}
config = Configurator()
config.add_route('search', '/search')
config.add_view(view, route_name='search', renderer='json')
app = config.make_wsgi_app()
def serve():
    data = json.loads(webob.Request.blank('/search?' + ATTACK).get_response(app).text)
    return data['q'], data['q_all'], data['utm_content']
""",
    "tornado": """
from tornado.httputil import HTTPServerRequest
def serve():
    request = HTTPServerRequest(method='GET', uri='/search?' + ATTACK)
    q_all = [v.decode('latin1') for v in request.query_arguments['q']]
    utm = request.query_arguments['utm_content'][-1].decode('latin1')
    return q_all[-1], q_all, utm  # RequestHandler.get_argument takes the last value
""",
    "paste": """
from paste.request import parse_dict_querystring
def serve():
    params = parse_dict_querystring({'QUERY_STRING': ATTACK})
    return params['q'], params.getall('q'), params['utm_content']
""",
    "webpy": """
import web
class search:
    def GET(self):
        return json.dumps([web.input().q, web.input(q=[]).q, web.input().utm_content])
app = web.application(('/search', 'search'), {'search': search})
def serve():
    return json.loads(app.request('/search?' + ATTACK).data)
""",
}

SCRIPT = """
import json, sys, warnings
ATTACK = %(attack)r
ORDER, FORCE = sys.argv[1], sys.argv[2] == 'force'
if ORDER == 'patch-first':
    import urllib_parse_backport
    urllib_parse_backport.patch(force=FORCE)
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
%(app)s
if ORDER == 'framework-first':
    import urllib_parse_backport
    urllib_parse_backport.patch(force=FORCE)
q, q_all, utm = serve()
print(json.dumps({'q': q, 'q_all': q_all, 'utm_content': utm}))
"""

FRAMEWORKS = ["webob", "pyramid", "tornado", "paste", "webpy"] if PY2 else [
    "tornado", "paste", "webpy"]
MODULES = {"webob": "webob", "pyramid": "pyramid", "tornado": "tornado", "paste": "paste",
           "webpy": "web"}


def run_app(framework, order):
    pytest.importorskip(MODULES[framework])
    indented = "\n".join("    " + line for line in APPS[framework].strip().splitlines())
    script = SCRIPT % {"attack": ATTACK, "app": indented}
    process = subprocess.Popen(
        [sys.executable, "-c", script, order, "force" if FORCE else "plain"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    out, err = process.communicate()
    assert process.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_app_sees_the_cached_value_after_patch(framework, order):
    seen = run_app(framework, order)
    assert seen == {"q": "common_term", "q_all": ["common_term"],
                    "utm_content": "s;q=malicious_term"}


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_without_the_shim(framework):
    seen = run_app(framework, "no-shim")
    if UNFIXED:
        # 2.7.18 (or a py3X-unfixed stdlib) splits on ';': the smuggled q reaches the app.
        assert "malicious_term" in seen["q_all"]
        assert seen["utm_content"] == "s"
    else:
        assert seen["q_all"] == ["common_term"]
        assert seen["utm_content"] == "s;q=malicious_term"
