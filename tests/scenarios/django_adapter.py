"""A Django app through django.test.Client, before or after ``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter), 'frameworks' or 'plain'.

Run by tests/test_frameworks_django.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import warnings

from adapter_order import Patching, is_own
from attack import ATTACK

ORDER = Patching(sys.argv[1], frameworks=sys.argv[2] == 'frameworks')
ORDER.at('patch-first')
with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    import django
    from django.conf import settings
    settings.configure(DEBUG=True, SECRET_KEY='test-only', ROOT_URLCONF='__main__',
                       ALLOWED_HOSTS=['testserver'], MIDDLEWARE=[], INSTALLED_APPS=[])
    django.setup()
    import django.http.request
    import django.utils.http
    from django.http import JsonResponse
    from django.test import Client
    try:
        from django.urls import re_path
    except ImportError:  # Django 1.11
        from django.conf.urls import url as re_path


def view(request):
    return JsonResponse({
        'GET': {'q': request.GET.getlist('q'), 'utm_content': request.GET.get('utm_content')},
        'POST': {'q': request.POST.getlist('q'), 'utm_content': request.POST.get('utm_content')},
    })


urlpatterns = [re_path(r'^search/$', view)]


def serve():
    client = Client()
    got = client.get('/search/?' + ATTACK)
    posted = client.post('/search/', ATTACK, content_type='application/x-www-form-urlencoded')
    return {'GET': json.loads(got.content.decode('utf-8'))['GET'],
            'POST': json.loads(posted.content.decode('utf-8'))['POST']}


# patch-first: the post-import hook fixed django.utils.http as it was imported,
# so this is the replacement.
# Kept in a tuple, out of reach of patch()'s scan of module namespaces.
held = (getattr(django.utils.http, 'limited_parse_qsl', None),)
held += (getattr(held[0], '__code__', None),)
ORDER.at('framework-first')


def report_fields(result, report):
    result['changed'] = report.changed
    result['skipped'] = [list(entry) for entry in report.skipped]
    result['alias_is_parser'] = (getattr(django.http.request, 'limited_parse_qsl', None)
                                 is getattr(django.utils.http, 'limited_parse_qsl', None))


result = ORDER.serve_unpatch_serve(serve, {'django': list(django.VERSION[:3]),
                                           'has_parser': held[0] is not None}, report_fields)
if ORDER.report is not None and held[0] is not None:
    restored = django.utils.http.limited_parse_qsl
    result['identical'] = django.http.request.limited_parse_qsl is restored and is_own(
        restored, 'django.utils.http', 'http.py', held if ORDER.framework_first else None)
print(json.dumps(result))
