"""WSGI middleware: ``protect(app)`` fixes CVE-2021-23336 for any parser behind it.

Why: every WSGI application, whatever parses its query (the stdlib, a
framework's own parser, in-house code), gets it from ``QUERY_STRING`` and
``wsgi.input``. Rewriting ``;`` to ``%3B`` there, before the application runs,
gives every parser the fields of the fixed ``parse_qsl`` (bpo-42967), with no
monkey-patching. ``legacy`` leaves requests as they are. The query is
rewritten here; the body by ``_body``. This layer patches nothing and is
imported by nothing else in the package.
"""

import operator

from .. import _policy
from .._compat import text_type
from .._rewrite import LEGACY, separate
from . import _body
from ._body import BodyRewriter

__all__ = ["protect", "ORIGINAL_QUERY_STRING", "ORIGINAL_BODY", "DEFAULT_MAX_BODY_SIZE"]

#: The environ key holding ``QUERY_STRING`` as the server gave it (always set;
#: under nested ``protect()`` calls, by the outermost).
ORIGINAL_QUERY_STRING = "urllib_parse_backport.original_query_string"
#: The environ key holding the body as read from the server (bytes), set
#: whenever ``protect()`` read the whole body before the application ran.
ORIGINAL_BODY = _body.ORIGINAL_BODY
#: 2.5 MiB: bodies with a length up to this size are read ahead and rewritten
#: (Django's default ``DATA_UPLOAD_MAX_MEMORY_SIZE``); larger ones pass
#: untouched, with a log line.
DEFAULT_MAX_BODY_SIZE = 2621440

_BAD_SEPARATOR = "protect(): the separator must be one ASCII character or 'legacy', not %r%s"


def protect(app, separator=None, max_body_size=DEFAULT_MAX_BODY_SIZE):
    """Return a WSGI application that calls *app* with each ``;`` of the query
    and of an urlencoded body percent-encoded, so that whatever parses them in
    *app* finds the fields of the fixed ``parse_qsl``.

    *separator*: ``None`` (default) follows ``PYTHON_URLLIB_QS_SEPARATOR`` as
    the parsers do (unset: ``'&'``); ``'legacy'`` leaves every request alone;
    any other one ASCII character is the field separator: it becomes ``&``,
    and each other ``&`` and ``;`` is percent-encoded. A bad value raises
    ``ValueError`` here, not per request. *max_body_size*: the largest
    body read ahead and rewritten (bytes, or None for no limit); a larger one
    reaches *app* untouched and is logged. A body is rewritten when it is
    labelled urlencoded, or unlabelled (not multipart) with the bytes of a
    form; every other body reaches *app* byte for byte.
    ``environ[ORIGINAL_QUERY_STRING]`` keeps the query as received.
    """
    separator, warn = _chosen_separator(separator)
    if max_body_size is not None:
        max_body_size = operator.index(max_body_size)
        if max_body_size < 0:
            raise ValueError("protect(): max_body_size must be >= 0 or None, not %r"
                             % (max_body_size,))

    if separator == LEGACY:
        def protected(environ, start_response):
            environ.setdefault(ORIGINAL_QUERY_STRING, environ.get("QUERY_STRING", ""))
            return app(environ, start_response)

    elif separator == "&" and not warn:
        body = BodyRewriter(_encode_semicolons, max_body_size, None)

        def protected(environ, start_response):
            query = environ.get("QUERY_STRING", "")
            environ.setdefault(ORIGINAL_QUERY_STRING, query)  # the outermost protect()
            if ";" in query:
                environ["QUERY_STRING"] = query.replace(";", "%3B")
            if environ.get("CONTENT_LENGTH") or environ.get("HTTP_TRANSFER_ENCODING"):
                body.rewrite(environ)
            return app(environ, start_response)

    else:
        rewrite_query = _native_rewriter(separator)
        body = BodyRewriter(_bytes_rewriter(separator), max_body_size,
                            _policy.warn_on_semicolon if warn else None)

        def protected(environ, start_response):
            query = environ.get("QUERY_STRING", "")
            environ.setdefault(ORIGINAL_QUERY_STRING, query)  # the outermost protect()
            if warn:  # name the server code that called us (see warn_on_semicolon)
                _policy.warn_on_semicolon(query, stacklevel=3)
            rewritten = rewrite_query(query)
            if rewritten is not query:
                environ["QUERY_STRING"] = rewritten
            if environ.get("CONTENT_LENGTH") or environ.get("HTTP_TRANSFER_ENCODING"):
                body.rewrite(environ)
            return app(environ, start_response)

    protected.__wrapped__ = app
    return protected


def _chosen_separator(separator):
    """``(separator, warn)``: the explicit *separator* as a native str, else the
    policy of ``PYTHON_URLLIB_QS_SEPARATOR``/``URLLIB_PARSE_BACKPORT_WARN``.

    A bad variable raises the ValueError the parsers raise when they use it.
    """
    origin = ""
    if separator is None:
        if _policy.problem() is not None:  # a bad value, an unreadable config file
            _policy.apply_default(u"")  # raises the parsers' own error for it
        if _policy.apply_default is None:
            return "&", False
        if _policy.apply_default is _policy.warn_on_semicolon:
            return "&", True
        separator = _policy.setting
        origin = " (from %s)" % (_policy.SEPARATOR_VARIABLE,)
    native = _ascii_native(separator)
    if native is None or not (native == LEGACY or len(native) == 1):
        # A WSGI server hands text over as latin-1 while applications decode
        # UTF-8: a non-ASCII separator has no single meaning there.
        raise ValueError(_BAD_SEPARATOR % (separator, origin))
    return native, False


def _ascii_native(value):
    """*value* (text or bytes) as a native ``str`` if it is ASCII, else None."""
    try:
        if isinstance(value, bytes):
            return str(value.decode("ascii"))
        if isinstance(value, text_type):
            return str(value.encode("ascii").decode("ascii"))
    except UnicodeError:
        pass
    return None


def _native_rewriter(separator):
    """The rewrite of a native-string query (latin-1 text on 3.x, bytes on 2.7)."""
    def rewrite_query(query):
        return separate(query, separator)
    return rewrite_query


def _encode_semicolons(data):
    """``separate(data)`` for bytes and ``'&'``, in one step."""
    return data.replace(b";", b"%3B")


def _bytes_rewriter(separator):
    """The rewrite of a body (bytes) for *separator*, a native str."""
    if not isinstance(separator, bytes):
        separator = separator.encode("ascii")

    def rewrite_body(data):
        return separate(data, separator)
    return rewrite_body
