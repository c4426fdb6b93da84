"""What both ``protect()`` middlewares (``wsgi``, ``asgi``) decide, in one place.

Why one place: a WSGI and an ASGI deployment of the same application must
see the same fields, so the separator a ``protect()`` call uses, the rewrite
of the query and of a body, and the rule telling which bodies a parser reads
as a form are decided here once; the middlewares only move bytes.

The body rule: a client chooses the headers that decide which parser reads
a body (Bottle 0.12 parses every body but multipart as a form,
``cgi.FieldStorage`` one without a Content-Type, Django a charset it cannot
decode as latin-1), so it looks at the bytes, not only at the labels:

* a Content-Type naming ``x-www-form-urlencoded`` (any case, any
  parameters, any charset): a form, rewritten;
* one starting with ``multipart/``: no parser reads it as a form, not read;
* anything else, or none: rewritten when the bytes have the shape of a form
  (printable ASCII, no whitespace, not JSON, not markup), else untouched;
* several (a repeated header, ASGI): a form if any says so, unread only if
  all say multipart, else looked at.

A body too large to read ahead (``max_body_size``) and rewrite is refused
with 413 when labelled urlencoded or unlabelled, passed on otherwise
(:data:`TOO_LARGE`, :func:`form_whatever_its_bytes`); one whose
Content-Length is not a number of bytes is refused with 400 (:data:`BAD_LENGTH`).

Each rewrite is byte-local (every output byte depends on one input byte), so
a body is rewritten chunk by chunk as it streams, wherever it is cut.
"""

import operator
import re

from . import _policy
from ._compat import text_type
from ._rewrite import LEGACY, separate

__all__ = ["DEFAULT_MAX_BODY_SIZE", "FORM", "SNIFF", "NOT_FORM", "chosen_separator",
           "query_rewriter", "body_rewriter", "body_kind", "body_kind_of_labels",
           "has_form_bytes", "is_json_or_markup", "check_max_body_size",
           "form_whatever_its_bytes", "log_untouched", "log_refused", "TOO_LARGE",
           "BAD_LENGTH"]

#: 2.5 MiB: bodies up to this size are read ahead and rewritten (Django's
#: default ``DATA_UPLOAD_MAX_MEMORY_SIZE``); a larger one labelled urlencoded,
#: or unlabelled and shaped like a form, is refused with 413, one under another
#: label passes untouched; each with a log line.
DEFAULT_MAX_BODY_SIZE = 2621440

#: What :func:`body_kind` says of a Content-Type.
FORM, SNIFF, NOT_FORM = "form", "sniff", "not a form"

_URLENCODED = "application/x-www-form-urlencoded"
_FORM_TYPE = "x-www-form-urlencoded"
_BAD_SEPARATOR = "protect(): the separator must be one ASCII character or 'legacy', not %r%s"
#: A byte no urlencoded form holds: anything but printable, non-space ASCII.
_NOT_FORM_BYTE = None


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


def check_max_body_size(max_body_size):
    """*max_body_size* as an int (or None); ValueError for a negative one."""
    if max_body_size is None:
        return None
    max_body_size = operator.index(max_body_size)
    if max_body_size < 0:
        raise ValueError("protect(): max_body_size must be >= 0 or None, not %r"
                         % (max_body_size,))
    return max_body_size


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


def body_kind(content_type):
    """:data:`FORM`, :data:`NOT_FORM` or :data:`SNIFF` (look at the bytes) for a
    Content-Type (native str; empty when absent)."""
    if content_type == _URLENCODED:  # the common case
        return FORM
    content_type = content_type.lower()
    if content_type[:10] == "multipart/":  # as Bottle and cgi tell it
        return NOT_FORM
    return FORM if _FORM_TYPE in content_type else SNIFF


def body_kind_of_labels(content_types):
    """:func:`body_kind` of a body sent with the Content-Type values *content_types*
    (native strs: none, one, or several when the client repeats the header).

    Why several count: frameworks disagree on which one is the label
    (Starlette reads the first, Django's ASGI handler joins them, others take
    the last), and a client sending ``urlencoded`` and ``text/plain`` must not
    get a body past the rule that one framework then parses as a form. So a
    body is a form if any value says so, passes unread only if every value
    says multipart, and is looked at otherwise."""
    if len(content_types) == 1:  # the common case
        return body_kind(content_types[0])
    kinds = [body_kind(value) for value in content_types] or [body_kind("")]
    if FORM in kinds:
        return FORM
    return SNIFF if SNIFF in kinds else NOT_FORM


def has_form_bytes(data):
    """Whether *data* holds only bytes an urlencoded form is made of:
    printable ASCII without space (whitespace, controls and 8-bit bytes are not)."""
    global _NOT_FORM_BYTE
    if _NOT_FORM_BYTE is None:
        _NOT_FORM_BYTE = re.compile(b"[^!-~]")
    return _NOT_FORM_BYTE.search(data) is None


def is_json_or_markup(data):
    """Whether form-shaped *data* is something else a client sends without
    spaces: a JSON document (``JSON.stringify``'s output), or markup (``<``)."""
    if data[:1] == b"<":
        return True
    import json
    try:
        json.loads(data.decode("ascii"))
    except (ValueError, RuntimeError):  # RuntimeError: nested past the recursion limit
        return False
    return True


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


def form_whatever_its_bytes(kind, labelled):
    """Whether a parser without a size limit reads a body of *kind* (*labelled*:
    a Content-Type came) as a form whatever its bytes: so when it cannot be
    read ahead (over ``max_body_size``: refused) or has no length at all (its
    stream is rewritten as it is read), its shape cannot excuse it.

    Labelled urlencoded, or unlabelled: ``cgi.FieldStorage`` (and WebOb 1.8
    through it) parses an unlabelled body as a form, without a limit.
    Labelled otherwise (``text/plain``, ``application/json``): only Bottle
    0.12 parses it as a form, and it refuses bodies over its ``MEMFILE_MAX``
    (100 KiB), while a large compact JSON document has no spaces and must
    get through."""
    return kind == FORM or not labelled


def log_refused(middleware, method, path, answer, reason):
    """Log that a body a parser could read as a form was refused with *answer*, and why."""
    import logging
    hint = " (raise max_body_size to accept such bodies)" if answer is TOO_LARGE else ""
    logging.getLogger("urllib_parse_backport").warning(
        "%s.protect: %s %r: refused with %d %s: body that a parser could read as a form, "
        "%s%s", middleware, method, path, answer[0], answer[1], reason, hint)


def log_untouched(middleware, method, path, reason):
    """Log that a body a parser could read as a form reached the application as received."""
    import logging
    logging.getLogger("urllib_parse_backport").warning(
        "%s.protect: %s %r: body that a parser could read as a form passed on as "
        "received (%s); a ';' in it can still separate fields", middleware, method, path, reason)
