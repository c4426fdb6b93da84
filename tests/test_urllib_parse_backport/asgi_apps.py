"""Real ASGI applications of the installed frameworks, and real servers, for the asgi tests.

Python 3 only (``async def``): test modules import it after skipping 2.7.
Each application answers ``/search`` like those of ``wsgi_apps``: JSON with
``query`` and ``form`` (the fields its framework parsed, as ``{name:
[values]}``), ``original`` (``protect()``'s copy of the query, as text).
Servers run in a thread on 127.0.0.1, on a socket bound to port 0.
"""

import asyncio
import contextlib
import os
import socket
import threading

from urllib_parse_backport.asgi import ORIGINAL_QUERY_STRING


def _original(scope):
    original = scope.get(ORIGINAL_QUERY_STRING)
    return None if original is None else original.decode("latin-1")


def _lists(multidict):
    fields = {}
    for name, value in multidict.multi_items():
        fields.setdefault(name, []).append(value)
    return fields


def starlette_app():
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def search(request):
        form = _lists(await request.form()) if request.method == "POST" else {}
        return JSONResponse({"query": _lists(request.query_params), "form": form,
                             "original": _original(request.scope)})

    return Starlette(routes=[Route("/search", search, methods=["GET", "POST"])])


def fastapi_app():
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

    app = FastAPI()

    @app.api_route("/search", methods=["GET", "POST"])
    async def search(request: Request):
        form = _lists(await request.form()) if request.method == "POST" else {}
        return JSONResponse({"query": _lists(request.query_params), "form": form,
                             "original": _original(request.scope)})

    return app


def django_app():
    """Django's ASGI handler on the view and settings of ``wsgi_apps.django_app``."""
    from wsgi_apps import django_app as configure
    configure()
    from django.core.handlers.asgi import ASGIHandler
    return ASGIHandler()


#: name -> (module to import, app factory).
FRAMEWORKS = {
    "starlette": ("starlette", starlette_app),
    "fastapi": ("fastapi", fastapi_app),
    "django": ("django.core.handlers.asgi", django_app),
}


def _bound():
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock


@contextlib.contextmanager
def uvicorn_server(app):
    import uvicorn
    sock = _bound()
    server = uvicorn.Server(uvicorn.Config(app, lifespan="off", log_level="error",
                                           access_log=False))

    def run():  # uvicorn before 0.17 asks for the thread's current loop
        asyncio.set_event_loop(asyncio.new_event_loop())
        server.run(sockets=[sock])

    thread = threading.Thread(target=run)
    thread.daemon = True
    thread.start()
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextlib.contextmanager
def hypercorn_server(app):
    from hypercorn.asyncio import serve
    from hypercorn.config import Config
    sock = _bound()
    config = Config()
    config.bind = ["fd://%d" % os.dup(sock.fileno())]  # hypercorn owns (closes) its copy
    config.accesslog = config.errorlog = None
    loop = asyncio.new_event_loop()
    stop, ready = [], threading.Event()

    async def main():
        stop.append(asyncio.Event())
        ready.set()
        await serve(app, config, shutdown_trigger=stop[0].wait)

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),))
    thread.daemon = True
    thread.start()
    ready.wait(10)
    try:
        yield sock.getsockname()[1]
    finally:
        loop.call_soon_threadsafe(stop[0].set)
        thread.join(10)
        sock.close()


async def echo_app(scope, receive, send):
    """Answers with the body as received, as JSON ``{"raw_body": latin-1 text}``."""
    import json
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if message["type"] != "http.request" or not message.get("more_body", False):
            break
    data = json.dumps({"raw_body": body.decode("latin-1")}).encode("utf-8")
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", b"%d" % len(data))]})
    await send({"type": "http.response.body", "body": data})


#: name -> (module to import, server).
SERVERS = {"uvicorn": ("uvicorn", uvicorn_server), "hypercorn": ("hypercorn", hypercorn_server)}


# --- calling an application directly ------------------------------------------------------


def recorder(seen):
    """An ASGI 3 app appending ``(scope, [messages received])`` to *seen*; on
    ``http`` it receives until the body ends (or the client is gone)."""
    async def app(scope, receive, send):
        messages = []
        if scope["type"] == "http":
            while not messages or (messages[-1]["type"] == "http.request"
                                   and messages[-1].get("more_body", False)):
                messages.append(await receive())
        seen.append((scope, messages))
    return app


def run(app, scope, messages=()):
    """Run *app* on *scope* in a new event loop; ``receive`` gives *messages*, one per
    pass of the loop (as a server does), then ``http.disconnect``. Returns the sent messages."""
    messages, sent = list(messages), []

    async def receive():
        await asyncio.sleep(0)
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    async def main():
        await app(scope, receive, send)

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
    return sent


async def failing_receive():
    """A ``receive`` whose connection fails after one pass of the loop."""
    await asyncio.sleep(0)
    raise OSError("connection reset")


def run_failing(app, scope):
    """Run *app* on *scope* with :func:`failing_receive`; what it raised, or None."""
    async def main():
        await app(scope, failing_receive, None)

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(main())
    except Exception as exc:
        return exc
    finally:
        loop.close()
    return None


def run_cancelled(app, scope):
    """Run *app* on *scope* with a ``receive`` that never returns, cancel it once it
    waits, and return whether the task ended cancelled."""
    async def never():
        await asyncio.sleep(3600)

    async def call():
        await app(scope, never, None)

    async def main():
        task = asyncio.ensure_future(call())
        await asyncio.sleep(0)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        return task.cancelled()

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(main())
    finally:
        loop.close()


def recording_echo(seen):
    """An ASGI 3 app that appends each HTTP request's body to *seen* and answers
    it as JSON ``{"body": latin-1 text}`` (other scopes, lifespan: ignored)."""
    import json

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        seen.append(body)
        answer = json.dumps({"body": body.decode("latin-1")}).encode("ascii")
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": answer})
    return app
