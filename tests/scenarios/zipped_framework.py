"""A framework in a zip archive (a zipped egg): the post-import hook still applies
its adapter (zipimport had no exec_module before 3.10).

argv: a scratch directory.

Run by tests/test_frameworks.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import zipfile

import urllib_parse_backport as shim
from urllib_parse_backport._shim import _frameworks

archive = sys.argv[1] + '/framework.zip'
with zipfile.ZipFile(archive, 'w') as bundle:  # a zipped egg's layout
    bundle.writestr('zipped_framework/__init__.py', '')
    bundle.writestr('zipped_framework/parsing.py',
                    'def parse(qs): return qs.replace(";", "&").split("&")')
sys.path.insert(0, archive)
adapter = _frameworks.FrameworkAdapter(
    'zipped_framework.parsing', 'parse', _frameworks._fields_in('a=1;b=2'))
report = shim.patch(frameworks=True, _adapters=[adapter])
waiting = dict(report.skipped).get('zipped_framework.parsing')
parsing = __import__('zipped_framework.parsing', None, None, ['parse'])
print(json.dumps({'waiting': waiting, 'changed': report.changed,
                  'fields': parsing.parse('q=1&u=s;q=2'),
                  'loader': type(parsing.__loader__).__name__}))
