"""WebOb's request.GET, before or after ``patch(frameworks=True)``, or no adapter.

argv: ORDER (framework-first, patch-first, no-adapter).

Run by tests/test_frameworks.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import warnings

from adapter_order import Patching, is_own
from attack import ATTACK

ORDER = Patching(sys.argv[1])


def serve():
    request = webob.Request.blank('/search?' + ATTACK)
    return {'q': request.GET['q'], 'q_all': request.GET.getall('q'),
            'utm_content': request.GET['utm_content']}


ORDER.at('patch-first')
with warnings.catch_warnings():
    warnings.simplefilter('ignore', DeprecationWarning)
    import webob
    import webob.compat
    import webob.request
# patch-first: the post-import hook fixed webob.compat as it was imported,
# so this is the replacement.
original = webob.compat.parse_qsl_text  # an alias patch() rebinds and unpatch() puts back
original_code = original.__code__
ORDER.at('framework-first')
report = ORDER.report
result = ORDER.serve_unpatch_serve(serve, {
    'changed': report.changed if report else [],
    'skipped': dict(report.skipped) if report else {}})
if report is not None:
    restored = webob.compat.parse_qsl_text
    held = (original, original_code) if ORDER.framework_first else None
    result['identical'] = webob.request.parse_qsl_text is restored and is_own(
        restored, 'webob.compat', 'compat.py', held)
print(json.dumps(result))
