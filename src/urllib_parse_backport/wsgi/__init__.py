"""WSGI middleware: ``protect(app)`` fixes CVE-2021-23336 for any parser behind it.

Why: every WSGI application, whatever parses its query (the stdlib, a
framework's own parser, in-house code), gets it from ``QUERY_STRING`` and
``wsgi.input``. Rewriting ``;`` to ``%3B`` there, before the application runs,
gives every parser the fields of the fixed ``parse_qsl`` (bpo-42967), with no
monkey-patching. ``legacy`` leaves requests as they are. The query is
rewritten here, the body by ``_body``, both by the rule ``_protect`` shares
with ``asgi.protect``. This layer patches nothing and is
imported by nothing else in the package.
"""

from .. import _policy
from .._protect import (DEFAULT_MAX_BODY_SIZE, body_rewriter, check_max_body_size,
                        chosen_separator, query_rewriter)
from .._rewrite import LEGACY
from . import _body
from ._body import BodyRewriter

__all__ = ["protect", "ORIGINAL_QUERY_STRING", "ORIGINAL_BODY", "DEFAULT_MAX_BODY_SIZE"]

#: The environ key holding ``QUERY_STRING`` as the server gave it (always set;
#: under nested ``protect()`` calls, by the outermost).
ORIGINAL_QUERY_STRING = "urllib_parse_backport.original_query_string"
#: The environ key holding the body as read from the server (bytes), set
#: whenever ``protect()`` read the whole body before the application ran.
ORIGINAL_BODY = _body.ORIGINAL_BODY


def protect(app, separator=None, max_body_size=DEFAULT_MAX_BODY_SIZE):
    """Return a WSGI application that calls *app* with each ``;`` of the query
    and of an urlencoded body percent-encoded, so that whatever parses them in
    *app* finds the fields of the fixed ``parse_qsl``.

    *separator*: ``None`` (default) follows ``PYTHON_URLLIB_QS_SEPARATOR`` as
    the parsers do (unset: ``'&'``); ``'legacy'`` leaves every request alone;
    any other one ASCII character is the field separator: it becomes ``&``,
    and each other ``&`` and ``;`` is percent-encoded. A bad value raises
    ``ValueError`` here, not per request. *max_body_size*: the largest
    body read ahead and rewritten (bytes, or None for no limit); a larger
    one that is labelled urlencoded, or unlabelled and shaped like a form, is
    refused with ``413 Payload Too Large`` (never passed on with its ``;``),
    one under another label passed on as received, each logged. A body that
    may be a form with a ``CONTENT_LENGTH`` that is not a number of bytes is
    refused with ``400 Bad Request``. A body is rewritten when it is
    labelled urlencoded, or unlabelled (not multipart) with the bytes of a
    form; every other body reaches *app* byte for byte.
    ``environ[ORIGINAL_QUERY_STRING]`` keeps the query as received.
    """
    separator, warn = chosen_separator(separator)
    max_body_size = check_max_body_size(max_body_size)

    if separator == LEGACY:
        def protected(environ, start_response):
            environ.setdefault(ORIGINAL_QUERY_STRING, environ.get("QUERY_STRING", ""))
            return app(environ, start_response)

    elif separator == "&" and not warn:
        body = BodyRewriter(body_rewriter("&"), max_body_size, None)

        def protected(environ, start_response):
            query = environ.get("QUERY_STRING", "")
            environ.setdefault(ORIGINAL_QUERY_STRING, query)  # the outermost protect()
            if ";" in query:
                environ["QUERY_STRING"] = query.replace(";", "%3B")
            if _may_have_body(environ):
                answer = body.rewrite(environ)
                if answer is not None:
                    return _answer(start_response, answer)
            elif environ.get("REQUEST_METHOD") not in _BODILESS and "wsgi.input" in environ:
                body.guard(environ)
            return app(environ, start_response)

    else:
        rewrite_query = query_rewriter(separator)
        body = BodyRewriter(body_rewriter(separator), max_body_size,
                            _policy.warn_on_semicolon if warn else None)

        def protected(environ, start_response):
            query = environ.get("QUERY_STRING", "")
            environ.setdefault(ORIGINAL_QUERY_STRING, query)  # the outermost protect()
            if warn:  # name the server code that called us (see warn_on_semicolon)
                _policy.warn_on_semicolon(query, stacklevel=3)
            rewritten = rewrite_query(query)
            if rewritten is not query:
                environ["QUERY_STRING"] = rewritten
            if _may_have_body(environ):
                answer = body.rewrite(environ)
                if answer is not None:
                    return _answer(start_response, answer)
            elif environ.get("REQUEST_METHOD") not in _BODILESS and "wsgi.input" in environ:
                body.guard(environ)
            return app(environ, start_response)

    protected.__wrapped__ = app
    return protected


#: The methods whose body ``cgi.FieldStorage`` never reads (it parses the query).
_BODILESS = frozenset(["GET", "HEAD"])


def _answer(start_response, answer):
    """Refuse the request with *answer*, ``(status, reason, body)`` (see
    ``_protect.TOO_LARGE``): its body could not be rewritten."""
    status, reason, text = answer
    start_response("%d %s" % (status, reason), [("Content-Type", "text/plain; charset=utf-8"),
                                                ("Content-Length", str(len(text)))])
    return [text]


def _may_have_body(environ):
    """A length, chunked framing, or a stream the server ends (``wsgi.input_terminated``:
    an HTTP/2 request may carry a body with neither header)."""
    return (environ.get("CONTENT_LENGTH") or environ.get("HTTP_TRANSFER_ENCODING")
            or environ.get("wsgi.input_terminated"))
