"""The body half of ``asgi.protect``: rewrite every request body a parser could read as a form.

Which bodies are forms, and their rewrite, is ``_protect``'s rule (shared
with ``wsgi.protect``). The rewrite changes the body's length and the
``content-length`` header in the scope must say so before the application
runs, so a body with a length is received first, up to a limit, and handed
over as one message. A body without one (chunked, or HTTP/2 without the
header) is rewritten message by message as the application receives it:
the rewrite is byte-local, so a ``;`` is caught wherever the body is cut.
A form in a content coding is received first in both cases, to be passed
on byte for byte, or handed on decoded and rewritten (without its
``content-encoding``), or refused, as ``_coded`` decides.
"""

from .._coded import coded_form
from .._forms import label_blind_limit, label_blind_parsers
from .._limits import HEADER_TOO_LARGE
from .._protect import (BAD_LENGTH, CUT_SHORT, REWRITE_BLIND, TOO_LARGE, VERIFY, body_action,
                        log_refused, log_untouched)
from ._await import Coroutine, Ready, Then

__all__ = ["ORIGINAL_BODY", "BodyRewriter"]

#: The scope key holding the body as received from the server (bytes), set
#: whenever ``protect()`` received the whole body before the application ran.
ORIGINAL_BODY = "urllib_parse_backport.original_body"


class BodyRewriter(object):
    """Runs an ASGI application on a request whose body is rewritten with
    *rewrite* (bytes -> bytes, byte by byte).

    *limits*: the ``_limits.Limits`` (``body``: the largest body received
    ahead, None for no limit). *warn*: None, or a function ``warn(data,
    stacklevel)`` called once per body rewritten.
    """

    __slots__ = ("_rewrite", "_limits", "_warn", "_label_blind")

    def __init__(self, rewrite, limits, warn, label_blind):
        self._rewrite = rewrite
        self._limits = limits
        self._warn = warn
        self._label_blind = label_blind

    def call(self, app, scope, receive, send, content_types, length, framed, coding, query):
        """The awaitable of *app* on a request that may have a body: *content_types*
        holds the ``content-type`` values
        (bytes), *length* and *coding* the ``content-length`` and
        ``content-encoding`` values (bytes, or None when absent), *framed*
        whether a ``transfer-encoding`` came, *query* the query string as
        received. What is refused, rewritten or passed is
        ``_protect.body_action``'s rule."""
        # The query counts: Django's ASGI handler parses it as text, but its
        # WSGI handler, behind an ASGI-to-WSGI adapter, decodes it with the
        # request's charset, as under a WSGI server.
        action, reason = body_action(
            tuple(value.decode("latin-1") for value in content_types),
            query.decode("latin-1") if isinstance(query, bytes) else query, length is not None,
            framed, None if coding is None else coding.decode("latin-1"), self._label_blind,
            label_blind_parsers, self._limits)
        if action is None:
            return app(scope, receive, send)
        if isinstance(action, tuple):
            return _refuse(scope, send, action, reason)
        if length is not None:
            value = length
            if len(value) > self._limits.header:  # int() is quadratic in digits before 3.11
                return _refuse(scope, send, HEADER_TOO_LARGE, "a content-length of %d "
                               "characters, over max_header_size=%d"
                               % (len(value), self._limits.header))
            try:
                length = int(length)
            except ValueError:  # servers refuse it; one that did not would stream it
                length = -1
            if length < 0:
                return _refuse(scope, send, BAD_LENGTH, "content-length %r is not a number "
                               "of bytes" % (value.decode("latin-1"),))
            if length == 0:
                return app(scope, receive, send)
            if self._limits.body is not None and length > self._limits.body:
                reason = "%d bytes, over max_body_size=%d" % (length, self._limits.body)
                if action is REWRITE_BLIND and _beyond_label_blind(length):
                    _log_untouched(scope, reason)
                    return app(scope, receive, send)
                return _refuse(scope, send, TOO_LARGE, reason)
        elif not framed and scope.get("http_version") in ("1.1", "1.0"):
            return app(scope, receive, send)  # HTTP/1 without a length or framing: no body
        elif action is not VERIFY:
            return app(scope, _Streaming(receive, self._rewrite, self._warn), send)
        return Coroutine(self._received_first(
            app, scope, receive, send, action, length is not None,
            None if coding is None else coding.decode("latin-1")))

    def _received_first(self, app, scope, receive, send, action, has_length, coding):
        """A coroutine (see ``_await``): receive the body, rewrite it (or, for
        :data:`VERIFY`, check it) within the limit, then run *app* on it. A form
        over the limit is refused with 413, unless it is a form only for a
        label-blind parser (Bottle 0.12 refuses it itself).

        A body whose client disconnected before it came whole is refused
        (``_protect.CUT_SHORT``), never handed on: the ASGI-to-WSGI adapters
        end the body at the disconnect, and the parser behind would read the
        bytes that came, unrewritten.

        What was received ahead reaches the application as one ``http.request``
        message (the bytes as they came: HTTP gives it no boundaries to keep),
        followed by any other message received (``http.disconnect``). Why one:
        a server that makes a message of each chunk of a chunked body (h11
        does, hypercorn's) would otherwise have this hold a body sent in
        one-byte chunks as a message per byte and hand them back in quadratic
        time."""
        limit, body = self._limits.body, bytearray()
        received = more = complete = False
        other = None
        while True:
            message = yield receive()
            if message.get("type") != "http.request":  # http.disconnect
                other = message
                break
            received, more = True, message.get("more_body", False)
            chunk = message.get("body", b"")
            if chunk:
                body += chunk
                if limit is not None and len(body) > limit:
                    reason = "over max_body_size=%d" % (limit,)
                    if action is not REWRITE_BLIND or not _beyond_label_blind(len(body)):
                        yield _refuse(scope, send, TOO_LARGE, reason)
                        return
                    _log_untouched(scope, reason)
                    break
            if not more:
                complete = True
                break
        data = bytes(body)
        if not complete and other is not None:
            yield _refuse(scope, send, CUT_SHORT, "the client disconnected after %d bytes "
                          "of its body" % (len(data),))
            return
        if not complete:
            messages = [{"type": "http.request", "body": data, "more_body": more}] \
                if received else []
            if other is not None:
                messages.append(other)
        elif action is VERIFY:
            decoded, problem = coded_form(data, coding, self._rewrite, self._limits)
            if problem is not None:
                yield _refuse(scope, send, *problem)
                return
            scope.setdefault(ORIGINAL_BODY, data)
            if decoded is None:  # byte for byte
                messages = [{"type": "http.request", "body": data, "more_body": False}]
            else:  # handed on decoded: no content-encoding left
                scope["headers"] = _without_coding(scope["headers"])
                messages = self._handed_on(scope, decoded, has_length, True)
        else:
            scope.setdefault(ORIGINAL_BODY, data)  # the outermost protect() received it
            messages = self._handed_on(scope, data, has_length, False)
        yield app(scope, _Replay(messages, receive), send)

    def _handed_on(self, scope, data, has_length, decoded):
        """The one message of *data* rewritten, with the scope's ``content-length``
        made to say its length when it changed (or the body was *decoded*)."""
        rewritten = self._rewrite(data)
        if rewritten is not data and self._warn is not None:
            self._warn(data, stacklevel=3)
        if has_length and (decoded or rewritten is not data):
            scope["headers"] = _with_length(scope["headers"], len(rewritten))
        return [{"type": "http.request", "body": rewritten, "more_body": False}]


def _with_length(headers, length):
    """*headers* with the ``content-length`` value *length* (``content_length`` too:
    an adapter makes ``HTTP_CONTENT_LENGTH`` of it)."""
    value = str(length).encode("ascii")
    return [(name, value) if name.lower().replace(b"_", b"-") == b"content-length"
            else (name, old) for name, old in headers]


def _without_coding(headers):
    """*headers* without ``content-encoding`` (``content_encoding`` too: an adapter
    makes ``HTTP_CONTENT_ENCODING`` of it), for a body handed on decoded."""
    return [(name, value) for name, value in headers
            if name.lower().replace(b"_", b"-") != b"content-encoding"]


class _Replay(object):
    """``receive`` for the application: the *messages* already received, then the server's."""

    __slots__ = ("_messages", "_receive")

    def __init__(self, messages, receive):
        self._messages = messages
        self._receive = receive

    def __call__(self):
        if self._messages:
            return Ready(self._messages.pop(0))
        return self._receive()


class _Streaming(object):
    """``receive`` for the application: each ``http.request`` message's body rewritten."""

    __slots__ = ("_receive", "_rewrite", "_warn")

    def __init__(self, receive, rewrite, warn):
        self._receive = receive
        self._rewrite = rewrite
        self._warn = warn

    def __call__(self):
        return Then(self._receive(), self._rewritten)

    def _rewritten(self, message):
        if message.get("type") == "http.request":
            body = message.get("body", b"")
            rewritten = self._rewrite(body)
            if rewritten is not body:
                message = dict(message, body=rewritten)
                if self._warn is not None:
                    warn, self._warn = self._warn, None  # once per body
                    warn(body, stacklevel=2)
        return message


def _log_untouched(scope, reason):
    log_untouched("asgi", scope.get("method"), scope.get("path"), reason)


def _refuse(scope, send, answer, reason):
    """Log the refusal of the request of *scope* with *answer*, ``(status, reason,
    body)`` (see ``_protect.TOO_LARGE``), now; return the awaitable that sends it."""
    log_refused("asgi", scope.get("method"), scope.get("path"), answer, reason)
    return Coroutine(_refusal(send, answer))


def _refusal(send, answer):
    """A coroutine (see ``_await``) sending the response of a refused request:
    its body could not be rewritten."""
    status, _, text = answer
    for message in ({"type": "http.response.start", "status": status,
                     "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                 (b"content-length", b"%d" % len(text))]},
                    {"type": "http.response.body", "body": text}):
        yield send(message)


def _beyond_label_blind(size):
    """Whether a body of *size* bytes is larger than any loaded label-blind parser
    reads (Bottle refuses one over its ``MEMFILE_MAX`` itself): only such a
    body over the limit is passed on as received."""
    most = label_blind_limit()
    return most is not None and size > most
