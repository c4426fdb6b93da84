"""A Starlette app's ``request.form()`` (python-multipart) on the attack body, Python 3.

argv: none; the start-up switch (``URLLIB_PARSE_BACKPORT_PATCH``) is set or
not by the test. Calls the app directly (a real ASGI call, no server), then
``unpatch()``s and calls it again. Run by tests/test_frameworks_multipart.py
in a fresh interpreter; prints one JSON line.
"""

import asyncio
import json

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from attack import ATTACK

import urllib_parse_backport


async def search(request):
    form = await request.form()
    return JSONResponse({"q": form.getlist("q"), "utm_content": form.get("utm_content")})


app = Starlette(routes=[Route("/search", search, methods=["POST"])])


def post(body):
    sent, messages = [], [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/search", "raw_path": b"/search", "root_path": "", "query_string": b"",
             "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1),
             "headers": [(b"content-type", b"application/x-www-form-urlencoded"),
                         (b"content-length", str(len(body)).encode("ascii"))]}
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(app(scope, receive, send))
    finally:
        loop.close()
    return json.loads(b"".join(m.get("body", b"") for m in sent).decode("utf-8"))


status = urllib_parse_backport.status()
result = {
    "seen": post(ATTACK.encode("ascii")),
    "changed": status["report"]["changed"] if status["report"] else [],
    "listed": [entry for entry in status["frameworks"] if "multipart" in entry["parser"]],
}
urllib_parse_backport.unpatch()
result["after_unpatch"] = post(ATTACK.encode("ascii"))
print(json.dumps(result))
