"""A Django app through django.test.Client, before or after ``patch(frameworks=True)``.

argv: ORDER (framework-first, patch-first, no-adapter), 'frameworks' or 'plain'.

Run by tests/test_frameworks_django.py in a fresh interpreter
(``fresh_interpreter.run_scenario``); prints one JSON line.
"""

import json
import sys
import warnings

from attack import ATTACK

ORDER, FRAMEWORKS = sys.argv[1], sys.argv[2] == 'frameworks'

report = None
if ORDER == 'patch-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=FRAMEWORKS)
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
# Kept in a dict, out of reach of patch()'s scan of module namespaces.
parser = getattr(django.utils.http, 'limited_parse_qsl', None)
saved = {'parser': parser, 'code': getattr(parser, '__code__', None)}
del parser
if ORDER == 'framework-first':
    import urllib_parse_backport
    report = urllib_parse_backport.patch(frameworks=FRAMEWORKS)
result = {'django': list(django.VERSION[:3]), 'has_parser': saved['parser'] is not None,
          'seen': serve()}
if report is not None:
    result['changed'] = report.changed
    result['skipped'] = [list(entry) for entry in report.skipped]
    result['alias_is_parser'] = (getattr(django.http.request, 'limited_parse_qsl', None)
                                 is getattr(django.utils.http, 'limited_parse_qsl', None))
    urllib_parse_backport.unpatch()
    result['after_unpatch'] = serve()
    if saved['parser'] is not None:
        restored = django.utils.http.limited_parse_qsl
        result['identical'] = (django.http.request.limited_parse_qsl is restored
                               and restored.__module__ == 'django.utils.http'
                               and restored.__code__.co_filename.endswith(
                                   ('http.py', 'http.pyc')))
        if ORDER == 'framework-first':
            result['identical'] = result['identical'] and (
                restored is saved['parser'] and restored.__code__ is saved['code'])
print(json.dumps(result))
