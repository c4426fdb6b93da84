"""Twisted Web's Site and HTTPChannel on a StringTransport, before or after
``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter).

Run by tests/test_frameworks_twisted.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import warnings

from adapter_order import Patching, is_own
from attack import ATTACK

ORDER = Patching(sys.argv[1])
ATTACK = ATTACK.encode('ascii')

ORDER.at('patch-first')
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    from twisted.web import http, resource, server
    try:
        from twisted.internet.testing import StringTransport
    except ImportError:  # Twisted < 21.2
        from twisted.test.proto_helpers import StringTransport

recorded = []


class Record(resource.Resource):
    isLeaf = True

    def render(self, request):
        recorded.append(request.args)
        return b'ok'


site = server.Site(Record())


def call(raw):
    protocol = site.buildProtocol(None)
    transport = StringTransport()
    protocol.makeConnection(transport)
    protocol.dataReceived(raw)
    assert transport.value().startswith(b'HTTP/1.1 200 '), transport.value()
    args = recorded.pop()
    assert not recorded
    bytes_only = all(isinstance(key, bytes) and isinstance(values, list)
                     and all(isinstance(value, bytes) for value in values)
                     for key, values in args.items())
    return {'args': dict((key.decode('latin-1'), [v.decode('latin-1') for v in values])
                         for key, values in args.items()),
            'bytes_only': bytes_only}


def serve():
    head = b'Host: example.com\r\nConnection: close\r\n'
    post = (b'POST /search HTTP/1.1\r\n' + head
            + b'Content-Type: application/x-www-form-urlencoded\r\n'
            + b'Content-Length: ' + str(len(ATTACK)).encode('ascii') + b'\r\n\r\n' + ATTACK)
    return {'get': call(b'GET /search?' + ATTACK + b' HTTP/1.1\r\n' + head + b'\r\n'),
            'post': call(post)}


def parsers():
    # Request.requestReceived looks parse_qs up in the real module's globals,
    # behind the proxy that Twisted 24+ puts in sys.modules.
    return {'module': http.parse_qs,
            'called': http.Request.requestReceived.__globals__['parse_qs']}


# patch-first: the post-import hook fixed twisted.web.http as it was imported,
# so these are the replacement.
held = parsers()
held_code = held['module'].__code__
ORDER.at('framework-first')
report = ORDER.report
result = ORDER.serve_unpatch_serve(serve, {'changed': report.changed if report else []})
if report is not None:
    now = parsers()
    checks = {
        'bound where called': now['module'] is now['called'],
        'is twisted.web.http own': is_own(now['module'], 'twisted.web.http', 'http.py'),
    }
    if ORDER.framework_first:
        checks['object and code'] = (now['module'] is held['module']
                                     and now['module'].__code__ is held_code)
    result['restored'] = checks
print(json.dumps(result))
