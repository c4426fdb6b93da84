"""A real Pyramid app on Python 3, before or after ``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter), STDLIB ('real-stdlib',
or 'vulnerable-stdlib': a stand-in for a 3.x stdlib without the bpo-42967 fix).

Run by tests/test_frameworks_pyramid.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import urllib.parse

ORDER, STDLIB = sys.argv[1], sys.argv[2]
if STDLIB == 'vulnerable-stdlib' and len(urllib.parse.parse_qsl('a=1;b=2')) == 1:
    # Stand-in for a 3.x stdlib without the CVE-2021-23336 fix: splits on both
    # (not needed in a py3X-unfixed environment, whose stdlib is one).
    _fixed = urllib.parse.parse_qsl

    def parse_qsl(qs, keep_blank_values=False, strict_parsing=False, encoding='utf-8',
                  errors='replace', max_num_fields=None, separator='&'):
        return _fixed(qs.replace(';', '&'), keep_blank_values, strict_parsing,
                      encoding, errors, max_num_fields, separator)

    urllib.parse.parse_qsl = parse_qsl
report = None
if ORDER == 'patch-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)
from pyramid_app import serve, webob  # noqa: E402 (the order under test)

# patch-first: the post-import hook fixed webob.compat as it was imported,
# so this is the replacement.
# Kept in a dict, out of reach of patch()'s scan of module namespaces.
saved = {'parser': webob.compat.parse_qsl_text,
         'code': webob.compat.parse_qsl_text.__code__}
if ORDER == 'framework-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)
result = {'seen': serve(), 'changed': report.changed if report else []}
if report is not None:
    urllib_parse_backport.unpatch()
    result['after_unpatch'] = serve()
    restored = webob.compat.parse_qsl_text
    result['identical'] = (webob.request.parse_qsl_text is restored
                           and restored.__module__ == 'webob.compat'
                           and restored.__code__.co_filename.endswith('compat.py'))
    if ORDER == 'framework-first':
        result['identical'] = result['identical'] and (
            restored is saved['parser'] and restored.__code__ is saved['code'])
print(json.dumps(result))
