"""ASGI middleware: ``protect(app)`` fixes CVE-2021-23336 for any parser behind it.

Why: an ASGI application (Starlette, FastAPI, Django's ASGI handler, Quart)
gets its query from ``scope["query_string"]`` and its body from
``receive``; rewriting ``;`` to ``%3B`` there, before the application sees
them, gives every parser behind it (the stdlib's, a framework's own,
python-multipart's) the fields of the fixed ``parse_qsl`` (bpo-42967). The
decisions (separator, rewrite, which bodies are forms) are ``_protect``'s,
the same as ``wsgi.protect``'s; the body is handled by ``_body``.

Python 3 only: ASGI is asyncio's. The module is still written in 2.7
syntax, with generator-based coroutines run by ``_await`` instead of
``async def``, because the wheel is universal and pip byte-compiles every
module when it installs it on 2.7, printing a SyntaxError for ``async``; on
2.7 importing it raises ImportError.
"""

import sys

if sys.version_info[0] < 3:
    raise ImportError("urllib_parse_backport.asgi needs Python 3 (ASGI runs on asyncio); "
                      "on Python 2.7, urllib_parse_backport.wsgi.protect protects a WSGI "
                      "application")

import functools  # noqa: E402 (after the version gate)
import inspect  # noqa: E402

from .. import _policy  # noqa: E402
from .._forms import label_blind_parsers  # noqa: E402
from .._protect import (DEFAULT_MAX_BODY_SIZE, body_rewriter,  # noqa: E402
                        chosen_separator, log_made, query_rewriter)
from .._limits import (DEFAULT_MAX_HEADER_SIZE, DEFAULT_MAX_MEMBERS,  # noqa: E402
                       DEFAULT_MAX_PARAMETERS, Limits)
from .._rewrite import LEGACY  # noqa: E402
from . import _body  # noqa: E402
from ._body import BodyRewriter  # noqa: E402

__all__ = ["protect", "ORIGINAL_QUERY_STRING", "ORIGINAL_BODY", "DEFAULT_MAX_BODY_SIZE",
           "DEFAULT_MAX_HEADER_SIZE", "DEFAULT_MAX_PARAMETERS", "DEFAULT_MAX_MEMBERS"]

#: The scope key holding ``query_string`` as the server gave it (bytes; always
#: set on ``http`` and ``websocket`` scopes; under nested ``protect()`` calls,
#: by the outermost).
ORIGINAL_QUERY_STRING = "urllib_parse_backport.original_query_string"
#: The scope key holding the body as received from the server (bytes), set
#: whenever ``protect()`` received the whole body before the application ran.
ORIGINAL_BODY = _body.ORIGINAL_BODY

_BODILESS = frozenset(["GET", "HEAD"])
_BODY_HEADERS = frozenset([b"content-length", b"content-type", b"transfer-encoding",
                           b"content-encoding"])
#: Their lengths: a name of another length is none of them, in any spelling.
_BODY_HEADER_LENGTHS = frozenset(len(name) for name in _BODY_HEADERS)


def protect(app, separator=None, max_body_size=DEFAULT_MAX_BODY_SIZE, label_blind=False,
            max_header_size=DEFAULT_MAX_HEADER_SIZE, max_parameters=DEFAULT_MAX_PARAMETERS,
            max_members=DEFAULT_MAX_MEMBERS):
    """Return an ASGI 3 application that calls *app* with each ``;`` of the
    query and of an urlencoded body percent-encoded, so that whatever parses
    them in *app* finds the fields of the fixed ``parse_qsl``.

    The arguments mean what they mean for ``wsgi.protect``. Only ``http``
    and ``websocket`` scopes are changed, on a copy: ``query_string``
    (``path`` and ``raw_path`` are untouched), and on ``http`` the body as
    *app* receives it and its ``content-length`` (and, for a compressed form
    handed on decoded, ``content-encoding``) headers; ``lifespan`` and any
    other scope reach *app* as they came. *app* is ASGI 3, or ASGI 2 (a class, or marked
    ``_asgi_double_callable``), which is called as ``app(scope)(receive,
    send)``. A server calling the result the ASGI 2 way gets the same.
    """
    separator, warn = chosen_separator(separator)
    limits = Limits(max_body_size, max_header_size, max_parameters, max_members)
    app = _single_callable(app)
    if separator == LEGACY:
        rewrite_query = body = None
    else:
        rewrite_query = query_rewriter(separator)
        body = BodyRewriter(body_rewriter(separator), limits,
                            _policy.warn_on_semicolon if warn else None, bool(label_blind))
    semicolons_only = separator == "&" and not warn

    def protected(scope, receive=None, send=None):
        if receive is None:  # called by an ASGI 2 server: awaited as (receive, send)
            return functools.partial(protected, scope)
        kind = scope["type"]
        if kind != "http" and kind != "websocket":  # lifespan, any other: as they are
            return app(scope, receive, send)
        query = scope.get("query_string", b"")
        scope = dict(scope)  # the server's stays as it was (ASGI: copy, then change)
        scope.setdefault(ORIGINAL_QUERY_STRING, query)
        if body is None:
            return app(scope, receive, send)
        if semicolons_only:
            if b";" in query:
                scope["query_string"] = query.replace(b";", b"%3B")
        else:
            if warn:
                _policy.warn_on_semicolon(query, stacklevel=2)
            scope["query_string"] = rewrite_query(query)
        if kind == "websocket":
            # Starlette's WebSocket.query_params and FastAPI's websocket Query()
            # parse it with the stdlib: the query, and nothing else, to rewrite.
            return app(scope, receive, send)
        content_types = ()  # every content-type value, in order: a client may repeat it
        spelt_otherwise = ()  # those of a header not named exactly "content-type"
        length = coding = None
        framed = False
        for name, value in scope.get("headers", ()):
            if name not in _BODY_HEADERS:  # one lookup for the headers that do not matter
                # Servers send names lower-cased (ASGI), but Django's handler reads
                # any case, so another case must count here as it does there. An
                # ASGI-to-WSGI adapter (asgiref, Starlette, uvicorn) makes
                # HTTP_CONTENT_TYPE of "content_type" as of "content-type", and
                # CherryPy reads that one: an underscore counts as a dash.
                if len(name) not in _BODY_HEADER_LENGTHS:
                    continue
                name = name.lower().replace(b"_", b"-")
                if name not in _BODY_HEADERS:
                    continue
                if name == b"content-type":
                    spelt_otherwise += (value,)
                    continue
            if name == b"content-length":
                # Two different lengths (one may be "content_length") are
                # joined, as Django joins repeated headers: no number of bytes.
                length = value if length is None or length == value else length + b", " + value
            elif name == b"content-type":
                content_types += (value,)
            elif name == b"content-encoding":
                # Every one, joined as Django's handler and the ASGI-to-WSGI
                # adapters join them (and WSGI servers): one that read the
                # first would decode a body checked under the last.
                coding = value if coding is None else coding + b"," + value
            else:
                framed = True
        if spelt_otherwise:
            # The adapters, Django and Starlette read only "content-type" as the
            # label (CONTENT_TYPE): without one, the body is unlabelled for
            # them (cgi and WebOb read a POST so as a form): a blank label.
            content_types = (content_types or (b"",)) + spelt_otherwise
        if not content_types and (
                (length is None and not framed and scope.get("http_version") in ("1.1", "1.0"))
                or (scope.get("method") in _BODILESS and not label_blind
                    and not label_blind_parsers())):
            # No label, and HTTP/1 without a body, or a GET/HEAD, whose
            # unlabelled body no parser reads as a form, except a label-blind
            # one (Bottle 0.12, which looks at no method, behind an adapter).
            return app(scope, receive, send)
        return body.call(app, scope, receive, send, content_types, length, framed, coding,
                         query)

    protected.__wrapped__ = app
    protected._asgi_single_callable = True  # asgiref's mark
    _mark_coroutine_function(protected)
    if body is not None:
        log_made("asgi", label_blind, label_blind_parsers)
    return protected


def _single_callable(app):
    """*app* as an ASGI 3 callable: an ASGI 2 one (a class without ``__await__``,
    as uvicorn tells them, or marked by asgiref) is instantiated per scope."""
    if getattr(app, "_asgi_single_callable", False):
        return app
    if getattr(app, "_asgi_double_callable", False) or (
            inspect.isclass(app) and not hasattr(app, "__await__")):
        def single(scope, receive, send):
            return app(scope)(receive, send)
        single.__wrapped__ = app
        return single
    return app


def _mark_coroutine_function(func):
    """Make servers that pick the ASGI version by asking whether the app is a
    coroutine function (uvicorn: ``asyncio.iscoroutinefunction``; hypercorn:
    ``inspect.iscoroutinefunction``, 3.12+) answer yes for *func*."""
    import asyncio.coroutines
    marker = getattr(asyncio.coroutines, "_is_coroutine", None)  # what @asyncio.coroutine set
    if marker is not None:
        func._is_coroutine = marker
    mark = getattr(inspect, "markcoroutinefunction", None)  # 3.12+
    if mark is not None:
        mark(func)
