"""An ASGI application cancelled while it awaits ``receive``, for the asgi tests.

Python 3 only (``async def``): test modules import it after skipping 2.7.
"""

import asyncio


def cancelled_while_receiving(protect, headers):
    """Run ``protect(app)`` on a POST with *headers*, cancel it while the
    application awaits ``receive``; what the server's ``receive`` and the
    application saw, in order."""
    events = []

    async def receive():
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            events.append("server's receive cancelled")
            raise
        return {"type": "http.request", "body": b"a;b"}

    async def app(scope, receive, send):
        try:
            await receive()
        except asyncio.CancelledError:
            events.append("app cancelled")
            raise

    scope = {"type": "http", "http_version": "1.1", "method": "POST", "path": "/",
             "query_string": b"", "headers": headers}

    async def main():
        task = asyncio.ensure_future(protect(app)(scope, receive, None))
        await asyncio.sleep(0.01)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            events.append("task cancelled")

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
    return events[:2] if events[-1:] == ["task cancelled"] else events + ["not cancelled"]
