"""A stand-in adapter for an installed module not imported yet: the post-import hook
applies it on import, and ``unpatch()`` before the import takes the hook away.

argv: 'import' or 'unpatch-first'.

Run by tests/test_frameworks.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys

import urllib_parse_backport as shim
from _cpython_security._import_hook import installed
from urllib_parse_backport._shim import _frameworks

# A stand-in adapter for a stdlib module that is installed but not imported.
ADAPTER = _frameworks.FrameworkAdapter('wsgiref.simple_server', 'demo_app', lambda parser: 1)


def hooks():
    return len(installed())


report = shim.patch(frameworks=True, _adapters=[ADAPTER])
seen = {'waiting': dict(report.skipped).get('wsgiref.simple_server'), 'hooks': hooks()}
if sys.argv[1] == 'unpatch-first':
    shim.unpatch()
__import__('wsgiref.simple_server')
seen['after_import'] = dict(report.skipped).get('wsgiref.simple_server')
hook = next(iter(installed()), None)
seen['still_waited_for'] = hook is not None and 'wsgiref.simple_server' in hook.names
seen['hooks_after'] = hooks()
print(json.dumps(seen))
