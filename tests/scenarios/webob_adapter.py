"""WebOb's request.GET, before or after ``patch(frameworks=True)``, or no adapter.

argv: ORDER (framework-first, patch-first, no-adapter).

Run by tests/test_frameworks.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import warnings

from attack import ATTACK

ORDER = sys.argv[1]


def serve():
    request = webob.Request.blank('/search?' + ATTACK)
    return {'q': request.GET['q'], 'q_all': request.GET.getall('q'),
            'utm_content': request.GET['utm_content']}


report = None
if ORDER == 'patch-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    import webob
    import webob.compat
    import webob.request
# patch-first: the post-import hook fixed webob.compat as it was imported,
# so this is the replacement.
original = webob.compat.parse_qsl_text
original_code = original.__code__
if ORDER == 'framework-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=True)
result = {'seen': serve(), 'changed': report.changed if report else [],
          'skipped': dict(report.skipped) if report else {}}
if report is not None:
    urllib_parse_backport.unpatch()
    result['after_unpatch'] = serve()
    restored = webob.compat.parse_qsl_text
    result['identical'] = (webob.request.parse_qsl_text is restored
                           and restored.__module__ == 'webob.compat'
                           and restored.__code__.co_filename.endswith(
                               ('compat.py', 'compat.pyc')))
    if ORDER == 'framework-first':
        result['identical'] = result['identical'] and (
            restored is original and original.__code__ is original_code)
print(json.dumps(result))
