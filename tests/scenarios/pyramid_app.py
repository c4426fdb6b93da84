"""A Pyramid app answering ``/search`` with the ``q`` and ``utm_content`` it sees in GET and POST.

Imported by the Pyramid scenarios at the point their import order asks for.
"""

import json
import warnings

from attack import ATTACK

with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    import webob
    import webob.compat
    import webob.request
    from pyramid.config import Configurator


def fields(multidict):
    return {'q': multidict.getall('q'), 'utm_content': multidict.get('utm_content')}


def view(request):
    return {'GET': fields(request.GET), 'POST': fields(request.POST)}


with warnings.catch_warnings():
    warnings.simplefilter('ignore')
    config = Configurator()
    config.add_route('search', '/search')
    config.add_view(view, route_name='search', renderer='json')
    app = config.make_wsgi_app()


def serve():
    got = webob.Request.blank('/search?' + ATTACK).get_response(app)
    posted = webob.Request.blank('/search', POST=ATTACK).get_response(app)
    return {'GET': json.loads(got.text)['GET'], 'POST': json.loads(posted.text)['POST']}
