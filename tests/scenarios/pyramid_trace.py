"""Which parser each Pyramid request reaches: spies on WebOb's and the stdlib's.

Run by tests/test_frameworks_pyramid.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import urllib.parse

from attack import ATTACK
from pyramid_app import app, webob

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
