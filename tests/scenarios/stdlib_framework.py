"""A framework that parses with the stdlib, imported before or after ``patch()``, or no shim.

argv: FRAMEWORK (webob, pyramid, tornado, paste, webpy), ORDER
(framework-first, patch-first, no-shim), 'force' or 'plain'.

Run by tests/test_frameworks_stdlib.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import warnings

import stdlib_apps

FRAMEWORK, ORDER, FORCE = sys.argv[1], sys.argv[2], sys.argv[3] == 'force'
if ORDER == 'patch-first':
    import urllib_parse_backport
    urllib_parse_backport.patch(force=FORCE)
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    serve = getattr(stdlib_apps, FRAMEWORK + '_app')()
if ORDER == 'framework-first':
    import urllib_parse_backport
    urllib_parse_backport.patch(force=FORCE)
q, q_all, utm = serve()
print(json.dumps({'q': q, 'q_all': q_all, 'utm_content': utm}))
