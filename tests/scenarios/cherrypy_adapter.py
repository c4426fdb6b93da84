"""A CherryPy app through its own WSGI app, before or after ``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter).

Run by tests/test_frameworks_cherrypy.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import io
import json
import sys
import warnings
from wsgiref.util import setup_testing_defaults

from adapter_order import Patching, is_own
from attack import ATTACK

ORDER = Patching(sys.argv[1])
URLENCODED = 'application/x-www-form-urlencoded'

ORDER.at('patch-first')
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    import cherrypy
    from cherrypy import _cpreqbody
    from cherrypy.lib import httputil


def kind(value):
    if isinstance(value, list):
        return 'list' if all(isinstance(v, type(u'')) for v in value) else 'mixed list'
    return 'text' if isinstance(value, type(u'')) else type(value).__name__


class Root(object):
    @cherrypy.expose
    def search(self, **params):
        params = cherrypy.request.params
        kinds = dict((key, kind(value)) for key, value in params.items())
        return json.dumps({'params': params, 'kinds': kinds})


cherrypy.config.update({'environment': 'embedded', 'log.screen': False})
app = cherrypy.tree.mount(Root(), '/')


def call(method, query, body=b''):
    environ = {'REQUEST_METHOD': method, 'PATH_INFO': '/search', 'QUERY_STRING': query}
    if body:
        environ.update({'CONTENT_TYPE': URLENCODED, 'CONTENT_LENGTH': str(len(body)),
                        'wsgi.input': io.BytesIO(body)})
    setup_testing_defaults(environ)
    status = []
    out = b''.join(app(environ, lambda s, headers, exc_info=None: status.append(s)))
    assert status == ['200 OK'], (status, out)
    return json.loads(out.decode('utf-8'))


def serve():
    return {'get': call('GET', ATTACK), 'post': call('POST', '', ATTACK.encode('ascii'))}


def parsers():
    # Where CherryPy looks them up: parse_query_string's globals (at call time)
    # and the processors dict filled at class definition.
    return {'query': httputil._parse_qs,
            'query_called': httputil.parse_query_string.__globals__['_parse_qs'],
            'body': _cpreqbody.process_urlencoded,
            'body_called': _cpreqbody.Entity.processors[URLENCODED]}


# patch-first: the post-import hook fixed CherryPy as it was imported, so the
# module attributes are the replacements; Entity.processors still holds the
# original (code swapped).
held = parsers()
held_codes = dict((key, func.__code__) for key, func in held.items())
ORDER.at('framework-first')
report = ORDER.report
result = ORDER.serve_unpatch_serve(serve, {'changed': report.changed if report else []})
if report is not None:
    now = parsers()
    checks = {
        'query bound where called': now['query'] is now['query_called'],
        'body bound where called': now['body'] is now['body_called'],
        'query is httputil own': is_own(now['query'], 'cherrypy.lib.httputil', 'httputil.py'),
        'body is _cpreqbody own': is_own(now['body'], 'cherrypy._cpreqbody', '_cpreqbody.py'),
        'processors entry is the original': now['body_called'] is held['body_called'],
    }
    if ORDER.framework_first:
        for key in held:
            checks[key + ' object and code'] = (now[key] is held[key]
                                                and now[key].__code__ is held_codes[key])
    result['restored'] = checks
print(json.dumps(result))
