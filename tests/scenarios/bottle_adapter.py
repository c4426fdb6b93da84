"""A Bottle app called as a WSGI app, before or after ``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter).

Run by tests/test_frameworks_bottle.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import io
import json
import sys
from wsgiref.util import setup_testing_defaults

from adapter_order import Patching, is_own
from attack import ATTACK

ORDER = Patching(sys.argv[1])


def call(app, method, query='', body=b''):
    environ = {'REQUEST_METHOD': method, 'PATH_INFO': '/search', 'QUERY_STRING': query,
               'CONTENT_TYPE': 'application/x-www-form-urlencoded',
               'CONTENT_LENGTH': str(len(body)), 'wsgi.input': io.BytesIO(body)}
    setup_testing_defaults(environ)
    chunks = app(environ, lambda status, headers, exc_info=None: None)
    return json.loads(b''.join(chunks).decode('utf-8'))


ORDER.at('patch-first')
import bottle  # noqa: E402 (the order under test)
original = bottle._parse_qsl  # an alias patch() rebinds and unpatch() puts back
original_code = original.__code__
ORDER.at('framework-first')

app = bottle.Bottle()


@app.route('/search', method=['GET', 'POST'])
def search():
    fields = bottle.request.query if bottle.request.method == 'GET' else bottle.request.forms
    bottle.response.content_type = 'application/json'
    return json.dumps({'q': fields.getall('q'), 'utm_content': fields.get('utm_content')})


def serve():
    return {'query': call(app, 'GET', query=ATTACK),
            'body': call(app, 'POST', body=ATTACK.encode('ascii'))}


def report_fields(result, report):
    result.update(changed=report.changed, skipped=dict(report.skipped))


result = ORDER.serve_unpatch_serve(serve, {}, report_fields)
if ORDER.report is not None:  # patch-first: 'original' is the replacement
    held = (original, original_code) if ORDER.framework_first else None
    result['identical'] = is_own(bottle._parse_qsl, 'bottle', 'bottle.py', held)
print(json.dumps(result))
