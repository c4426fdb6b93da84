"""Real WSGI applications of the installed frameworks, and a real server, for the wsgi tests.

Each application answers ``/search`` with JSON: ``query`` and ``form`` (the
fields its framework parsed from the query string and from an urlencoded
body, as ``{name: [values]}``), ``original`` (what ``protect()`` kept of the
query) and ``raw_body`` (the body it read, as latin-1 text, when the app
reads one itself). ``SPLITS`` says, per framework, whether its parsers split
on ``;`` as installed here (query, body): the framework's own code, or a stdlib
that is not fixed (2.7.18).
"""

import contextlib
import io
import json
import re
import sys
import threading
import warnings

from stdlib_state import UNFIXED
from urllib_parse_backport import read_environment
from urllib_parse_backport.wsgi import ORIGINAL_QUERY_STRING

PY2 = sys.version_info[0] == 2

if PY2:  # pragma: no cover - exercised by the py27 environment
    from httplib import HTTPConnection
    from urllib import unquote_plus

    def unquote_text(text):
        return unquote_plus(text).decode("utf-8")
else:
    from http.client import HTTPConnection
    from urllib.parse import unquote_plus

    def unquote_text(text):
        return unquote_plus(text.encode("latin-1").decode("utf-8"))


@contextlib.contextmanager
def policy(**variables):
    """Run with exactly these separator variables, then re-read the real environment."""
    read_environment(variables)
    try:
        yield
    finally:
        read_environment()


def _lists(fields):
    """``{name: [values]}`` of a CherryPy-style dict (a value or a list per name)."""
    return dict((name, value if isinstance(value, list) else [value])
                for name, value in fields.items())


def _answer(query, form, original, raw_body=None):
    return json.dumps({"query": query, "form": form, "original": original,
                       "raw_body": raw_body}).encode("utf-8")


def inhouse_app(environ, start_response):
    """An in-house parser that splits on ``&`` and ``;``, as 2.7's urlparse did."""
    def parse(text):
        fields = {}
        for pair in re.split("[&;]", text):
            if pair:
                name, _, value = pair.partition("=")
                fields.setdefault(unquote_text(name), []).append(unquote_text(value))
        return fields

    form, raw, data = {}, None, None
    if environ.get("CONTENT_LENGTH"):
        data, length = b"", int(environ["CONTENT_LENGTH"])
        while length > len(data):  # read(n) may return less (PEP 3333)
            chunk = environ["wsgi.input"].read(length - len(data))
            if not chunk:
                break
            data += chunk
    elif environ.get("wsgi.input_terminated"):  # a de-chunked body: read to its end
        data = environ["wsgi.input"].read()
    if data is not None:
        raw = data.decode("latin-1")
        form = parse(data if PY2 else raw)  # the native string
    body = _answer(parse(environ.get("QUERY_STRING", "")), form,
                   environ.get(ORIGINAL_QUERY_STRING), raw)
    start_response("200 OK", [("Content-Type", "application/json")])
    return [body]


def cgi_app(environ, start_response):
    """An application that parses its body with ``cgi.FieldStorage`` itself, as
    old in-house code does (and WebOb through it)."""
    import cgi
    fields = cgi.FieldStorage(fp=environ["wsgi.input"], environ=environ,
                              keep_blank_values=True)
    form = {}
    for field in fields.list or []:
        form.setdefault(field.name, []).append(field.value)
    start_response("200 OK", [("Content-Type", "application/json")])
    return [_answer({}, form, environ.get(ORIGINAL_QUERY_STRING))]


def django_app():
    import django
    from django.conf import settings
    from django.http import HttpResponse
    try:
        from django.urls import re_path
    except ImportError:  # Django 1.11
        from django.conf.urls import url as re_path

    def search(request):
        form = dict(request.POST.lists()) if request.method == "POST" else {}
        original = request.META.get(ORIGINAL_QUERY_STRING)
        if getattr(request, "scope", None) is not None:  # served by the ASGI handler
            original = request.scope.get(ORIGINAL_QUERY_STRING)
            original = None if original is None else original.decode("latin-1")
        return HttpResponse(_answer(dict(request.GET.lists()), form, original),
                            content_type="application/json")

    class URLConf(object):
        urlpatterns = [re_path(r"^search$", search)]

    if not settings.configured:
        settings.configure(DEBUG=False, SECRET_KEY="test-only", ALLOWED_HOSTS=["*"],
                           ROOT_URLCONF=URLConf, MIDDLEWARE=[],
                           DATA_UPLOAD_MAX_MEMORY_SIZE=None,
                           DATA_UPLOAD_MAX_NUMBER_FIELDS=None)
        django.setup()
    else:
        settings.ROOT_URLCONF = URLConf
    from django.core.handlers.wsgi import WSGIHandler
    return WSGIHandler()


def webob_app():
    from webob import Request, Response

    def app(environ, start_response):
        request = Request(environ)
        form = request.POST.dict_of_lists() if request.method == "POST" else {}
        response = Response(body=_answer(request.GET.dict_of_lists(), form,
                                         request.environ.get(ORIGINAL_QUERY_STRING)),
                            content_type="application/json", charset="utf-8")
        return response(environ, start_response)
    return app


def bottle_app():
    import bottle
    app = bottle.Bottle()

    @app.route("/search", method=["GET", "POST"])
    def search():
        def lists(fields):
            fields = fields.decode()
            return dict((name, fields.getall(name)) for name in fields)
        request = bottle.request
        bottle.response.content_type = "application/json"
        return _answer(lists(request.query), lists(request.forms),
                       request.environ.get(ORIGINAL_QUERY_STRING))
    return app


def cherrypy_app():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import cherrypy

    class Root(object):
        @cherrypy.expose
        def search(self, **params):
            request = cherrypy.request
            # request.params holds the query's and the body's fields together.
            query = _lists(request.params) if request.method == "GET" else {}
            cherrypy.response.headers["Content-Type"] = "application/json"
            return _answer(query, _lists(request.body.params),
                           request.wsgi_environ.get(ORIGINAL_QUERY_STRING))

    cherrypy.config.update({"environment": "embedded", "log.screen": False})
    return cherrypy.tree.mount(Root(), "/")


def _version(text):
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def _django_splits():
    import django
    version = django.VERSION[:3]  # fixed in 2.2.19, 3.0.13, 3.1.7
    return version < (2, 2, 19) or (3, 0) <= version < (3, 0, 13) or (3, 1) <= version < (3, 1, 7)


def _bottle_splits():
    import bottle
    return _version(bottle.__version__) < (0, 12, 19)


#: name -> (module to import, app factory, () -> (query splits, body splits)).
FRAMEWORKS = {
    "inhouse": (None, lambda: inhouse_app, lambda: (True, True)),
    "django": ("django", django_app, lambda: (_django_splits(), _django_splits())),
    # 3.x: WebOb's own parser for the query, the fixed stdlib (cgi) for bodies;
    # 2.7: the stdlib (2.7.18 splits on ';') for both.
    "webob": ("webob", webob_app, lambda: (True, UNFIXED)),  # bodies: the stdlib parses them
    "bottle": ("bottle", bottle_app, lambda: (_bottle_splits(), _bottle_splits())),
    "cherrypy": ("cherrypy", cherrypy_app, lambda: (True, True)),
}


def import_framework(name):
    """The framework's app factory and ``SPLITS``, or None if it is not installed."""
    module, factory, splits = FRAMEWORKS[name]
    if module is not None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                __import__(module)
        except ImportError:
            return None
    return factory, splits()


URLENCODED = "application/x-www-form-urlencoded"


def server_environ(method="GET", query="", body=None, content_type=URLENCODED, chunked=False):
    """The environ a server builds for a request to ``/search``.

    *content_type* None: the request has no Content-Type (the server sets no
    ``CONTENT_TYPE``). *chunked*: the body came with ``Transfer-Encoding:
    chunked``, which gunicorn, cheroot and Werkzeug de-chunk, giving no
    ``CONTENT_LENGTH`` and ``wsgi.input_terminated``; ``"framed"``: as
    wsgiref passes it on, framing and all, with neither (Bottle de-chunks it).
    """
    from wsgiref.util import setup_testing_defaults
    environ = {"REQUEST_METHOD": method, "PATH_INFO": "/search", "QUERY_STRING": query}
    if body is not None:
        environ["wsgi.input"] = io.BytesIO(body)
        if content_type is not None:
            environ["CONTENT_TYPE"] = content_type
        if chunked == "framed":
            environ["wsgi.input"] = io.BytesIO(frame(body))
            environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        elif chunked:
            environ.update({"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True})
        else:
            environ["CONTENT_LENGTH"] = str(len(body))
    setup_testing_defaults(environ)
    return environ


def frame_chunks(chunks):
    """*chunks* (bytes) in HTTP/1.1 chunked framing, up to and with the last-chunk
    line ``0\\r\\n``: the trailers, if any, and the final CRLF come after it."""
    return b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for chunk in chunks) + b"0\r\n"


def frame(body, size=7):
    """*body* in HTTP/1.1 chunked framing, *size* bytes a chunk, with the final CRLF."""
    return frame_chunks([body[start:start + size] for start in range(0, len(body), size)]) \
        + b"\r\n"


def dechunk(data):
    """The body of chunked *data*, and what follows its last-chunk line."""
    pieces = []
    while True:
        line, data = data.split(b"\r\n", 1)
        size = int(line.split(b";")[0], 16)
        if not size:
            return b"".join(pieces), data
        pieces.append(data[:size])
        assert data[size:size + 2] == b"\r\n"
        data = data[size + 2:]


def call(app, method="GET", query="", body=None, content_type=URLENCODED, chunked=False):
    """Call *app* with :func:`server_environ`'s environ and return its JSON answer."""
    environ = server_environ(method, query, body, content_type, chunked)
    status = []
    chunks = app(environ, lambda s, headers, exc_info=None: status.append(s))
    try:
        out = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    assert status and status[0].startswith("200"), (status, out)
    return json.loads(out.decode("utf-8"))


# --- a real server on 127.0.0.1 ---------------------------------------------------------


@contextlib.contextmanager
def wsgiref_server(app):
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    class QuietHandler(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = make_server("127.0.0.1", 0, app, handler_class=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@contextlib.contextmanager
def cheroot_server(app):
    from cheroot import wsgi

    server = wsgi.Server(("127.0.0.1", 0), app, numthreads=2)
    server.prepare()
    thread = threading.Thread(target=server.serve)
    thread.daemon = True
    thread.start()
    try:
        yield server.bind_addr[1]
    finally:
        server.stop()
        thread.join(10)


SERVERS = {"wsgiref": (None, wsgiref_server), "cheroot": ("cheroot", cheroot_server)}


def request(port, method="GET", query="", body=None, content_type=URLENCODED, status=200):
    """Send one HTTP request to 127.0.0.1:*port*, which must answer *status*; return
    the JSON answer of a 200, else the body."""
    connection = HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {}
        if body is not None:
            headers = {"Content-Type": content_type, "Content-Length": str(len(body))}
        connection.request(method, "/search" + ("?" + query if query else ""), body, headers)
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    assert response.status == status, (response.status, data[:2000])
    return json.loads(data.decode("utf-8")) if status == 200 else data


def over_the_limit(serve, app, protect, body):
    """POST *body* to *app* served by *serve*, bare and then behind *protect*
    with a limit one byte under it: ``(the bare app's form, the answer behind
    protect, which must be a 413)``."""
    with serve(app) as port:
        form = request(port, "POST", body=body)["form"]
    with serve(protect(app, max_body_size=len(body) - 1)) as port:
        answer = request(port, "POST", body=body, status=413)
    return form, answer


def request_chunked(port, chunks, content_type=URLENCODED):
    """POST *chunks* (bytes) to 127.0.0.1:*port* with ``Transfer-Encoding: chunked``,
    written on the socket by hand (2.7's httplib cannot); return the JSON answer."""
    head = ["Transfer-Encoding: chunked"]
    if content_type is not None:
        head.append("Content-Type: " + content_type)
    return request_by_hand(port, head, frame_chunks(chunks) + b"\r\n")


def request_by_hand(port, head, body, status=200, end=False):
    """POST *body* (bytes, sent as it is) to 127.0.0.1:*port* under the header
    lines *head*, written on the socket by hand (repeated headers, any framing,
    any length); *end*: then close the sending side, so that the server's
    stream ends there. Return the JSON answer of a 200, else the body."""
    import socket
    head = ["POST /search HTTP/1.1", "Host: 127.0.0.1:%d" % port, "Connection: close"] + head
    message = ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    try:
        connection.sendall(message)
        if end:
            connection.shutdown(socket.SHUT_WR)
        received = []
        for data in iter(lambda: connection.recv(65536), b""):
            received.append(data)
    finally:
        connection.close()
    head, _, body = b"".join(received).partition(b"\r\n\r\n")
    # wsgiref says HTTP/1.0
    assert head.split(b" ", 2)[1:2] == [str(status).encode("ascii")], (head, body[:2000])
    if b"transfer-encoding: chunked" in head.lower():
        body = dechunk(body)[0]
    return json.loads(body.decode("utf-8")) if status == 200 else body
