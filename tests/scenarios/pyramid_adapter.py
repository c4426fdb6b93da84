"""A real Pyramid app on Python 3, before or after ``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter), STDLIB ('real-stdlib',
or 'vulnerable-stdlib': a stand-in for a 3.x stdlib without the bpo-42967 fix).

Run by tests/test_frameworks_pyramid.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import urllib.parse

from adapter_order import Patching, is_own

ORDER, STDLIB = Patching(sys.argv[1]), sys.argv[2]
if STDLIB == 'vulnerable-stdlib' and len(urllib.parse.parse_qsl('a=1;b=2')) == 1:
    # Stand-in for a 3.x stdlib without the CVE-2021-23336 fix: splits on both
    # (not needed in a py3X-unfixed environment, whose stdlib is one).
    _fixed = urllib.parse.parse_qsl

    def parse_qsl(qs, keep_blank_values=False, strict_parsing=False, encoding='utf-8',
                  errors='replace', max_num_fields=None, separator='&'):
        return _fixed(qs.replace(';', '&'), keep_blank_values, strict_parsing,
                      encoding, errors, max_num_fields, separator)

    urllib.parse.parse_qsl = parse_qsl
ORDER.at('patch-first')
from pyramid_app import serve, webob  # noqa: E402 (the order under test)

# patch-first: the post-import hook fixed webob.compat as it was imported,
# so this is the replacement.
# Kept in a tuple, out of reach of patch()'s scan of module namespaces.
held = (webob.compat.parse_qsl_text, webob.compat.parse_qsl_text.__code__)
ORDER.at('framework-first')
report = ORDER.report
result = ORDER.serve_unpatch_serve(serve, {'changed': report.changed if report else []})
if report is not None:
    restored = webob.compat.parse_qsl_text
    result['identical'] = webob.request.parse_qsl_text is restored and is_own(
        restored, 'webob.compat', 'compat.py', held if ORDER.framework_first else None)
print(json.dumps(result))
