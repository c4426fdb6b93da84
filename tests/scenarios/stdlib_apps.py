"""Small apps of frameworks that parse query strings with the stdlib's parsers.

Each ``<framework>_app()`` imports its framework and returns ``serve()``, which
returns ``(q, all q values, utm_content)`` as the app reads them for the
attack query. The scenario decides when the import happens.
"""

import json

from attack import ATTACK


def webob_app():
    import webob

    def serve():
        request = webob.Request.blank('/search?' + ATTACK)
        return request.GET['q'], request.GET.getall('q'), request.GET['utm_content']
    return serve


def pyramid_app():
    from pyramid.config import Configurator
    import webob

    def view(request):
        return {'q': request.params['q'], 'q_all': request.GET.getall('q'),
                'utm_content': request.params['utm_content']}

    config = Configurator()
    config.add_route('search', '/search')
    config.add_view(view, route_name='search', renderer='json')
    app = config.make_wsgi_app()

    def serve():
        data = json.loads(webob.Request.blank('/search?' + ATTACK).get_response(app).text)
        return data['q'], data['q_all'], data['utm_content']
    return serve


def tornado_app():
    from tornado.httputil import HTTPServerRequest

    def serve():
        request = HTTPServerRequest(method='GET', uri='/search?' + ATTACK)
        q_all = [v.decode('latin1') for v in request.query_arguments['q']]
        utm = request.query_arguments['utm_content'][-1].decode('latin1')
        return q_all[-1], q_all, utm  # RequestHandler.get_argument takes the last value
    return serve


def paste_app():
    from paste.request import parse_dict_querystring

    def serve():
        params = parse_dict_querystring({'QUERY_STRING': ATTACK})
        return params['q'], params.getall('q'), params['utm_content']
    return serve


def webpy_app():
    import web

    class search:
        def GET(self):
            return json.dumps([web.input().q, web.input(q=[]).q, web.input().utm_content])

    app = web.application(('/search', 'search'), {'search': search})

    def serve():
        return json.loads(app.request('/search?' + ATTACK).data)
    return serve
