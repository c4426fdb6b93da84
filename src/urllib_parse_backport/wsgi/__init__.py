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
from .._forms import label_blind_parsers
from .._protect import (DEFAULT_MAX_BODY_SIZE, body_rewriter,
                        chosen_separator, log_made, query_rewriter)
from .._limits import (DEFAULT_MAX_HEADER_SIZE, DEFAULT_MAX_MEMBERS, DEFAULT_MAX_PARAMETERS,
                       Limits)
from .._rewrite import LEGACY
from . import _body
from ._body import BodyRewriter

__all__ = ["protect", "ORIGINAL_QUERY_STRING", "ORIGINAL_BODY", "DEFAULT_MAX_BODY_SIZE",
           "DEFAULT_MAX_HEADER_SIZE", "DEFAULT_MAX_PARAMETERS", "DEFAULT_MAX_MEMBERS"]

#: The environ key holding ``QUERY_STRING`` as the server gave it (always set;
#: under nested ``protect()`` calls, by the outermost).
ORIGINAL_QUERY_STRING = "urllib_parse_backport.original_query_string"
#: The environ key holding the body as read from the server (bytes), set
#: whenever ``protect()`` read the whole body before the application ran.
ORIGINAL_BODY = _body.ORIGINAL_BODY


def protect(app, separator=None, max_body_size=DEFAULT_MAX_BODY_SIZE, label_blind=False,
            max_header_size=DEFAULT_MAX_HEADER_SIZE, max_parameters=DEFAULT_MAX_PARAMETERS,
            max_members=DEFAULT_MAX_MEMBERS):
    """Return a WSGI application that calls *app* with each ``;`` of the query
    and of a form body percent-encoded, so that whatever parses them in *app*
    finds the fields of the fixed ``parse_qsl``.

    *separator*: ``None`` (default) follows ``PYTHON_URLLIB_QS_SEPARATOR`` as
    the parsers do (unset: ``'&'``); ``'legacy'`` leaves every request alone;
    any other one ASCII character is the field separator: it becomes ``&``,
    and each other ``&`` and ``;`` is percent-encoded. A bad value raises
    ``ValueError`` here, not per request. *max_body_size*: the largest body
    read ahead and rewritten (bytes, or None for no limit). *label_blind*:
    True when a parser behind reads every body but a multipart one as a form
    whatever its Content-Type (in-house code that does not look at the
    label); ``protect()`` finds Bottle <= 0.12.18 by itself.
    *max_header_size*, *max_parameters*, *max_members*: the bounds of what
    a request makes ``protect()`` read (``_limits``: the longest
    Content-Type, Content-Encoding, Content-Length or Transfer-Encoding,
    the most ``;`` in the Content-Type, the most members of a compressed
    form).

    A body is a form when a parser behind could read it as one: labelled
    ``application/x-www-form-urlencoded`` or ``application/x-url-encoded``
    (in any case, in any element of a list), with a media range
    (``application/*``, ``*/*``), unlabelled, or under any label but
    multipart while a label-blind parser that splits on ``;`` (Bottle <=
    0.12.18) is loaded, or with *label_blind*. Every other body reaches
    *app* byte for byte. A gzip or deflate form whose bytes, coded or
    decoded, hold a separator reaches *app* decoded and rewritten, without
    ``HTTP_CONTENT_ENCODING``. A request that cannot be rewritten is
    refused, logged, without calling *app*: a form over *max_body_size*
    (413), a Content-Length that is not a number or that comes with a
    Transfer-Encoding (400), a charset that can write a separator other than
    as its ASCII byte, on a query or a form (400), a form in a
    Content-Encoding other than gzip and deflate, or that does not decode,
    or that reads otherwise as raw deflate than as zlib (415), of more members
    than *max_members* (415) or decompressing past *max_body_size* (413), a
    form whose body ended before its Content-Length (400), a header past
    *max_header_size* (431), a Content-Type of more parameters than
    *max_parameters* (400).
    ``environ[ORIGINAL_QUERY_STRING]`` keeps the query as received.
    """
    separator, warn = chosen_separator(separator)
    limits = Limits(max_body_size, max_header_size, max_parameters, max_members)
    if separator == LEGACY:
        def unprotected(environ, start_response):
            environ.setdefault(ORIGINAL_QUERY_STRING, environ.get("QUERY_STRING", ""))
            return app(environ, start_response)
        unprotected.__wrapped__ = app
        return unprotected

    semicolons_only = separator == "&" and not warn
    rewrite_query = query_rewriter(separator)
    body = BodyRewriter(body_rewriter(separator), limits,
                        _policy.warn_on_semicolon if warn else None, bool(label_blind))

    def protected(environ, start_response):
        query = environ.get("QUERY_STRING", "")
        environ.setdefault(ORIGINAL_QUERY_STRING, query)  # the outermost protect()
        if semicolons_only:
            if ";" in query:
                environ["QUERY_STRING"] = query.replace(";", "%3B")
        else:
            if warn:  # name the server code that called us (see warn_on_semicolon)
                _policy.warn_on_semicolon(query, stacklevel=3)
            rewritten = rewrite_query(query)
            if rewritten is not query:
                environ["QUERY_STRING"] = rewritten
        answer = body.rewrite(environ, query)
        if answer is not None:
            return _answer(start_response, answer)
        return app(environ, start_response)

    protected.__wrapped__ = app
    log_made("wsgi", label_blind, label_blind_parsers)
    return protected


def _answer(start_response, answer):
    """Refuse the request with *answer*, ``(status, reason, body)`` (see
    ``_protect.TOO_LARGE``): its body could not be rewritten."""
    status, reason, text = answer
    start_response("%d %s" % (status, reason), [("Content-Type", "text/plain; charset=utf-8"),
                                                ("Content-Length", str(len(text)))])
    return [text]
