"""A Bottle app called as a WSGI app, before or after ``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter).

Run by tests/test_frameworks_bottle.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import io
import json
import sys
from wsgiref.util import setup_testing_defaults

from attack import ATTACK

ORDER = sys.argv[1]


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
import bottle  # noqa: E402 (the order under test)
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
