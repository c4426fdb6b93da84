"""What both ``protect()`` middlewares (``wsgi``, ``asgi``) decide, in one place.

Why one place: a WSGI and an ASGI deployment of the same application must
see the same fields, so the separator a ``protect()`` call uses, the rewrite
of the query and of a body, and which requests are refused are decided here
once; the middlewares only move bytes. Which bodies a parser reads as a form
is ``_forms``'s rule, read off the parsers.

Each rewrite is byte-local (every output byte depends on one input byte), so
a body is rewritten chunk by chunk as it streams, wherever it is cut. A
request that cannot be rewritten so that every parser behind finds the fixed
fields is refused, never passed on with its ``;``: the answers are
:data:`TOO_LARGE`, :data:`BAD_LENGTH`, :data:`BAD_FRAMING`,
:data:`BAD_CHARSET` and :data:`ENCODED`.
"""

from . import _charsets, _forms, _limits, _policy
from ._compat import text_type
from ._rewrite import LEGACY, separate

__all__ = ["DEFAULT_MAX_BODY_SIZE", "chosen_separator", "query_rewriter", "body_rewriter",
           "body_action", "log_made", "log_untouched", "log_refused", "REWRITE", "REWRITE_BLIND",
           "VERIFY", "TOO_LARGE", "BAD_LENGTH", "BAD_FRAMING", "BAD_CHARSET", "ENCODED",
           "CUT_SHORT"]

#: 2.5 MiB: bodies up to this size are read ahead and rewritten (Django's
#: default ``DATA_UPLOAD_MAX_MEMORY_SIZE``); a larger form is refused with 413
#: (see :func:`body_action`), each with a log line.
DEFAULT_MAX_BODY_SIZE = 2621440

#: What :func:`body_action` says to do with a body, when it is not refused and
#: not passed on untouched (None): rewrite it; rewrite it because a
#: label-blind parser is loaded (one over the limit passes, as that parser
#: refuses it itself); read it whole and pass it byte for byte if neither its
#: coded bytes nor its decoded ones hold a byte the rewrite changes, else
#: hand it on decoded and rewritten (``_coded``).
REWRITE, REWRITE_BLIND, VERIFY = "rewrite", "rewrite for a label-blind parser", "verify"
_PLAIN_FORM = ("application/x-www-form-urlencoded",)

_BAD_SEPARATOR = "protect(): the separator must be one ASCII character or 'legacy', not %r%s"


def chosen_separator(separator):
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


def query_rewriter(separator):
    """The rewrite of a query (native str or bytes) for *separator*, a native str."""
    def rewrite_query(query):
        return separate(query, separator)
    return rewrite_query


def _encode_semicolons(data):
    """``separate(data)`` for bytes and ``'&'``, in one step."""
    return data.replace(b";", b"%3B")


def body_rewriter(separator):
    """The byte-local rewrite of a body (bytes) for *separator*, a native str."""
    if separator == "&":
        return _encode_semicolons
    if not isinstance(separator, bytes):
        separator = separator.encode("ascii")

    def rewrite_body(data):
        return separate(data, separator)
    return rewrite_body


#: The answers ``protect()`` gives itself, ``(status, reason, body)``, to a request
#: whose body could be read as a form but cannot be rewritten. Passed on as
#: received, its ``;`` would split fields in any parser behind that reads it
#: anyway (Starlette, WebOb and ``cgi`` set no size limit of their own, and
#: ``cgi.FieldStorage`` reads to the end of the stream when the length is not
#: a number), so the request is refused, as Django and Bottle refuse forms
#: over their limits and most servers a bad Content-Length.
TOO_LARGE = (413, "Payload Too Large",
             b"This request's body could be read as a form and is larger than the "
             b"server accepts for one.\n")
BAD_LENGTH = (400, "Bad Request",
              b"This request's Content-Length is not a number of bytes, and its body "
              b"could be read as a form.\n")


BAD_FRAMING = (400, "Bad Request",
               b"This request has both a Content-Length and a Transfer-Encoding, and its "
               b"body could be read as a form.\n")
BAD_CHARSET = (400, "Bad Request",
               b"This request's charset can write field separators other than as their "
               b"ASCII bytes.\n")
ENCODED = (415, "Unsupported Media Type",
           b"This request's body could be read as a form and is in a Content-Encoding "
           b"that the server cannot decode to one form.\n")
#: A form whose client stopped sending before its Content-Length: ASGI-to-WSGI
#: adapters (a2wsgi, asgiref, Starlette's) end the body at the disconnect and
#: the parsers behind them read what came, so it is never handed on; nobody
#: is left to read the answer but a client that only half-closed.
CUT_SHORT = (400, "Bad Request",
             b"This request's body ended before its Content-Length, and it could be "
             b"read as a form.\n")


def body_action(labels, query, length, framed, coding, label_blind, find_blind=None,
                limits=None):
    """``(action, reason)`` for a request: *labels*, its Content-Type values
    (native strs; empty when none came); *query*, its query string where a
    parser decodes it with the request's charset (WSGI: Django's
    ``request.GET``), else None; *length*,
    whether a Content-Length came; *framed*, whether a Transfer-Encoding did;
    *coding*, its Content-Encoding value (empty or None when none came);
    *label_blind*, whether the application said a parser behind reads every
    body but multipart as a form (``protect(label_blind=True)``);
    *find_blind*, ``_forms.label_blind_parsers`` (under ASGI too: a WSGI
    application may run behind an ASGI adapter), or None; *limits*, the
    ``_limits.Limits`` the headers are held to (None: none).

    *action* is None (the body passes untouched, and the request goes on),
    :data:`REWRITE`, :data:`REWRITE_BLIND`, :data:`VERIFY`, or an answer
    refusing the request (:data:`BAD_CHARSET`, :data:`BAD_FRAMING`); *reason*
    says why, for the log. Which bodies are forms is ``_forms.body_kind``'s rule.

    * a Content-Type or Content-Encoding past ``max_header_size``, or
      Content-Type values of more than ``max_parameters`` parameters, are
      refused before any other reading (``_limits``): every step after is
      linear in them;

    * a charset that can spell a separator without its byte is refused where
      Django decodes with it before it splits: on a form body, and on a query
      that it decodes to other text holding ``&``, ``;`` or ``=``;
    * a form with both a length and a transfer coding is refused: servers
      follow the coding, and a rewrite that trusted the length would miss the
      body (RFC 9112 6.3 calls such a request an error);
    * a form in a content coding is read whole (:data:`VERIFY`): rewriting
      the coded bytes would break them, and passing them unread would let a
      parser that does not decode them (none of the frameworks does) split
      them on their ``;``; ``_coded`` passes it byte for byte or decodes it."""
    if labels == _PLAIN_FORM and not framed and not coding:  # the common case
        return REWRITE, None
    if limits is not None:
        problem = limits.headers_problem(labels, (coding,))
        if problem is not None:
            return problem
    kind = _forms.body_kind(labels)
    if labels:
        unsafe = _charsets.unsafe_charsets(labels)
        if unsafe and (kind == _forms.FORM or _charsets.decodes_to_fields(query, unsafe)):
            charset = unsafe[0]  # a codec module's name, never the client's text
            return BAD_CHARSET, "charset %r can write a separator other than as its ASCII " \
                "byte, and Django decodes the %s with it before it splits" \
                % (charset, "body" if kind == _forms.FORM else "query")
    if kind == _forms.MULTIPART:
        return None, "multipart"
    action = REWRITE
    if kind == _forms.OTHER and not label_blind:
        if find_blind is None or not find_blind():
            return None, "labelled neither urlencoded nor multipart"
        action = REWRITE_BLIND
    if length and framed:
        return BAD_FRAMING, "both Content-Length and Transfer-Encoding"
    if coding and coding.strip().lower() != "identity":
        return VERIFY, "Content-Encoding %r" % (coding,)
    return action, None


def log_made(middleware, label_blind, find_blind):
    """Log, at INFO, which bodies a ``protect()`` just made rewrites: those
    labelled as a form (``_forms``) or unlabelled, or every one but multipart when
    *label_blind* (the application said so) or while a label-blind parser
    that splits on ``;`` is loaded (then at WARNING, with its name: honest
    ``text/plain`` bodies are rewritten too)."""
    import logging
    blind = find_blind() if find_blind is not None else ()
    logger = logging.getLogger("urllib_parse_backport")
    if label_blind:
        logger.info("%s.protect: rewriting ';' in queries and in every body but a "
                    "multipart one (label_blind=True)", middleware)
    elif not blind:
        logger.info("%s.protect: rewriting ';' in queries and in bodies labelled "
                    "application/x-www-form-urlencoded (or x-url-encoded, or a media "
                    "range) or unlabelled", middleware)
    else:
        logger.warning("%s.protect: rewriting ';' in queries and in every body but a "
                       "multipart one: %s, loaded, parses any body as a form and splits "
                       "it on ';' (patch(frameworks=True) fixes it)",
                       middleware, ", ".join(blind))


_KNOBS = {TOO_LARGE: "max_body_size", _limits.CODED_TOO_LARGE: "max_body_size",
          _limits.HEADER_TOO_LARGE: "max_header_size",
          _limits.TOO_MANY_PARAMETERS: "max_parameters", _limits.TOO_MANY_MEMBERS: "max_members"}


def log_refused(middleware, method, path, answer, reason):
    """Log that a body a parser could read as a form was refused with *answer*, and why."""
    import logging
    knob = _KNOBS.get(answer)
    hint = " (raise %s to accept such requests)" % (knob,) if knob else ""
    logging.getLogger("urllib_parse_backport").warning(
        "%s.protect: %s %r: refused with %d %s: body that a parser could read as a form, "
        "%s%s", middleware, method, path, answer[0], answer[1], reason, hint)


def log_untouched(middleware, method, path, reason):
    """Log that a body a parser could read as a form reached the application as received."""
    import logging
    logging.getLogger("urllib_parse_backport").warning(
        "%s.protect: %s %r: body that a parser could read as a form passed on as "
        "received (%s); a ';' in it can still separate fields", middleware, method, path, reason)
