"""The body half of ``wsgi.protect``: rewrite every request body a parser could read as a form.

Which bodies are forms, which requests are refused, and the rewrite are
``_protect``'s rule (shared with ``asgi.protect``). The rewrite changes the
body's length, and ``CONTENT_LENGTH`` must say so before the application
reads a byte, so a body with a length is read first, up to a limit. A body
without one (``wsgi.input_terminated``) is rewritten as the application
reads it: the rewrite is byte-local, so no more than one read is held. A
chunked body the server hands over with its framing (wsgiref) is read chunk
by chunk to its last chunk, and a form is handed on as one chunk, followed
by the rest of the stream, rewritten too. A form in a content coding is
read whole, and passed on byte for byte or handed on decoded and rewritten
(``_coded``'s rule), without ``HTTP_CONTENT_ENCODING``.
"""

import io

from .._coded import coded_form
from .._forms import label_blind_limit, label_blind_parsers
from .._limits import HEADER_TOO_LARGE, TOO_MANY_CHUNKS
from .._protect import (BAD_LENGTH, CUT_SHORT, REWRITE_BLIND, TOO_LARGE, VERIFY, body_action,
                        log_refused, log_untouched)
from ._chunks import CHUNK, LEAST_AVERAGE, MOST_CHUNKS, TOO_LARGE_CHUNKED, TOO_MANY, \
    read, read_chunks
from ._input import Input

__all__ = ["ORIGINAL_BODY", "BodyRewriter"]

#: The environ key holding the body as read from the server (bytes), set
#: whenever ``protect()`` read the whole body before the application ran.
ORIGINAL_BODY = "urllib_parse_backport.original_body"

#: The methods whose body ``cgi.FieldStorage`` never reads (it parses the query), nor
#: WebOb or CherryPy (by default) without a label.
_BODILESS = frozenset(["GET", "HEAD"])


class BodyRewriter(object):
    """Rewrites the body of an environ with *rewrite* (bytes -> bytes, byte by byte).
    *limits*: the ``_limits.Limits`` (``body``: the largest body read ahead,
    None for no limit). *warn*: None, or a function ``warn(data,
    stacklevel)`` called once per body that is rewritten.
    """

    __slots__ = ("_rewrite", "_limits", "_warn", "_label_blind")

    def __init__(self, rewrite, limits, warn, label_blind):
        self._rewrite = rewrite
        self._limits = limits
        self._warn = warn
        self._label_blind = label_blind

    def rewrite(self, environ, query):
        """Replace ``wsgi.input`` (and ``CONTENT_LENGTH``) of a body a parser reads
        as a form; *query* is the query as received.

        Returns None, or the answer (``_protect.TOO_LARGE``, ``BAD_LENGTH``,
        ``BAD_FRAMING``, ``BAD_CHARSET``, ``ENCODED``, ``CUT_SHORT``, or one of
        ``_limits``') to a request that must be refused, as
        ``_protect.body_action`` and :func:`_over_limit` decide. A body shorter
        than its ``CONTENT_LENGTH`` (the client stopped sending) is refused
        like a whole one that cannot be rewritten: never handed on."""
        content_type = environ.get("CONTENT_TYPE")
        if not content_type and environ.get("REQUEST_METHOD") in _BODILESS \
                and not self._label_blind and not label_blind_parsers():
            # An unlabelled GET/HEAD body: cgi, WebOb, CherryPy never parse
            # it; Bottle 0.12 does (it looks at no method), when loaded.
            return None
        length = environ.get("CONTENT_LENGTH")
        framing = environ.get("HTTP_TRANSFER_ENCODING")
        terminated = environ.get("wsgi.input_terminated")
        if not content_type and not (length or framing or terminated):
            action = True  # no body in HTTP/1, but see the stream guard below
        else:
            labels = (content_type,) if content_type else ()
            # Twisted also passes the headers as HTTP_CONTENT_TYPE, joined, and
            # CherryPy reads that one over CONTENT_TYPE: both count. Without a
            # CONTENT_TYPE (gunicorn < 22 passes a "Content_Type" header only
            # as HTTP_CONTENT_TYPE) the body stays unlabelled for cgi and WebOb,
            # which read a POST so as a form: a blank label says so.
            also = environ.get("HTTP_CONTENT_TYPE")
            if also and also != content_type:
                labels = (content_type or "", also)
            action, reason = body_action(labels,
                                         query, length, framing,
                                         environ.get("HTTP_CONTENT_ENCODING"), self._label_blind,
                                         label_blind_parsers, self._limits)
            if isinstance(action, tuple):
                return _refused(environ, action, reason)
        if action is None or "wsgi.input" not in environ:
            return None
        if length:
            if len(length) > self._limits.header:  # int() is quadratic in digits before 3.11
                return _refused(environ, HEADER_TOO_LARGE, "a Content-Length of %d characters, "
                                "over max_header_size=%d" % (len(length), self._limits.header))
            try:
                length = int(length)
            except ValueError:
                length = -1
            if length < 0:  # cgi.FieldStorage would read to the end of the stream
                return _refused(environ, BAD_LENGTH, "Content-Length %r is not a number of "
                                "bytes" % (environ["CONTENT_LENGTH"],))
            if length == 0:
                return None
            if self._limits.body is not None and length > self._limits.body:
                return _over_limit(environ, action, length,
                                   "%d bytes, over max_body_size=%d" % (length, self._limits.body))
            data = read(environ["wsgi.input"], length)
            if len(data) < length:
                return _refused(environ, CUT_SHORT, "%d of its Content-Length of %d bytes came"
                                % (len(data), length))
            if action is VERIFY:
                return self._verify(environ, data, io.BytesIO(data))
            self._hand_over(environ, data, length)
        elif framing and "chunked" in framing.lower() and not terminated:
            return self._rewrite_framed(environ, action)
        elif terminated and action is VERIFY:
            data = self._read_ahead(environ)
            if data is None:
                return _over_limit(environ, action, self._limits.body + 1,
                                   "over max_body_size=%d" % (self._limits.body,))
            return self._verify(environ, data, io.BytesIO(data))
        elif terminated or environ.get("REQUEST_METHOD") not in _BODILESS:
            # No length: the server ends the stream (it de-chunked the body), or
            # hands on the connection as it is (wsgiref), where HTTP gives no
            # body but a reader that reads to the end of the stream
            # (cgi.FieldStorage without a length) gets whatever the client
            # sends until it closes. Either way it is rewritten as it is read.
            environ["wsgi.input"] = Input(b"", environ["wsgi.input"], self._rewrite,
                                          self._warn)
        return None

    def _verify(self, environ, data, stream, framed=False):
        """A form in a content coding, read whole as *data*: handed on byte for byte
        as *stream*, or decoded and rewritten (without ``HTTP_CONTENT_ENCODING``,
        with a ``CONTENT_LENGTH`` that says its length, or as one chunk when
        the server left the *framed* chunks to the application), or refused, as
        ``_coded.coded_form`` decides."""
        coding = environ.get("HTTP_CONTENT_ENCODING") or ""
        decoded, problem = coded_form(data, coding, self._rewrite, self._limits)
        if problem is not None:
            return _refused(environ, *problem)
        environ.setdefault(ORIGINAL_BODY, data)
        if decoded is None:
            environ["wsgi.input"] = stream
            return None
        del environ["HTTP_CONTENT_ENCODING"]
        rewritten = self._rewrite(decoded)
        if rewritten is not decoded and self._warn is not None:
            self._warn(decoded, stacklevel=5)
        if framed:  # what follows the last chunk, read from the server's stream
            environ["wsgi.input"] = Input(_one_chunk(rewritten), environ["wsgi.input"],
                                          self._rewrite, None)
            return None
        environ["wsgi.input"] = io.BytesIO(rewritten)
        if environ.get("CONTENT_LENGTH"):
            environ["CONTENT_LENGTH"] = str(len(rewritten))
            if "HTTP_CONTENT_LENGTH" in environ:  # Twisted passes it too; CherryPy reads it
                environ["HTTP_CONTENT_LENGTH"] = environ["CONTENT_LENGTH"]
        return None

    def _rewrite_framed(self, environ, action):
        """A chunked body whose framing the server left in the stream (wsgiref:
        ``Transfer-Encoding: chunked``, no ``CONTENT_LENGTH``, no
        ``wsgi.input_terminated``), which the application de-chunks itself
        (Bottle does). The chunks are read as far as the last one, never
        further, so the read cannot wait for a byte the client will not send;
        a form comes back rewritten as one chunk. What follows the last-chunk
        line (trailers, and whatever the client sends before it closes, which
        ``cgi.FieldStorage`` reads to the end) is rewritten as it is read. One
        over the limit is refused (the answer is returned) or passed on, as
        :func:`_over_limit` decides; one of too many small chunks is refused."""
        stream = environ["wsgi.input"]
        raw, data, problem = read_chunks(stream, self._limits.body)  # data: a size if too large
        if problem is None:
            if action is VERIFY:
                return self._verify(environ, data, Input(raw, stream, self._rewrite, self._warn),
                                    framed=True)
            environ.setdefault(ORIGINAL_BODY, data)  # read whole, as a body with a length
            rewritten = self._rewrite(data)
            if rewritten is not data and self._warn is not None:
                self._warn(data, stacklevel=4)
            # Always framed anew, as one chunk: chunk extensions (";name=value"
            # after a size) are not kept, since cgi.FieldStorage reads the raw
            # stream and would split on their ';'.
            environ["wsgi.input"] = Input(_one_chunk(rewritten), stream, self._rewrite, None)
        elif problem is TOO_LARGE_CHUNKED:
            environ["wsgi.input"] = Input(raw, stream, None, None)
            return _over_limit(environ, action, data,
                               "chunked, over max_body_size=%d" % (self._limits.body,))
        elif problem is TOO_MANY:
            return _refused(environ, TOO_MANY_CHUNKS, "chunked in more than %d chunks "
                            "averaging under %d bytes" % (MOST_CHUNKS, LEAST_AVERAGE))
        else:
            # A broken frame: every ';' from here on is escaped, which can break
            # the framing the application reads but never lets a ';' through to
            # split a field.
            environ["wsgi.input"] = Input(self._rewrite(raw), stream, self._rewrite,
                                          self._warn)

    def _read_ahead(self, environ):
        """The body of a stream the server ends, read to its end, or None when it
        is over the limit (the bytes read are put back in front of the stream)."""
        stream, limit = environ["wsgi.input"], self._limits.body
        body = bytearray()
        while True:
            want = CHUNK if limit is None else min(CHUNK, limit + 1 - len(body))
            chunk = stream.read(want)
            if not chunk:
                return bytes(body)
            body += chunk
            if limit is not None and len(body) > limit:
                environ["wsgi.input"] = Input(bytes(body), stream, None, None)
                return None

    def _hand_over(self, environ, data, length):
        """Give the application *data* rewritten as its stream."""
        rewritten = self._rewrite(data)
        if rewritten is not data and self._warn is not None:
            self._warn(data, stacklevel=5)  # names the server code that called protect()
        environ.setdefault(ORIGINAL_BODY, data)  # the outermost protect() read it first
        environ["wsgi.input"] = io.BytesIO(rewritten)
        if rewritten is not data and length is not None:
            # A short read stays short by as much as the server's stream was.
            environ["CONTENT_LENGTH"] = str(length + len(rewritten) - len(data))
            if "HTTP_CONTENT_LENGTH" in environ:  # Twisted passes it too; CherryPy reads it
                environ["HTTP_CONTENT_LENGTH"] = environ["CONTENT_LENGTH"]


def _one_chunk(data):
    """*data* framed as one chunk and the last chunk (no trailers: what follows
    in the stream comes after)."""
    return b"%x\r\n%s\r\n0\r\n" % (len(data), data) if data else b"0\r\n"


def _log_untouched(environ, reason):
    log_untouched("wsgi", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"), reason)


def _refused(environ, answer, reason):
    log_refused("wsgi", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"), answer, reason)
    return answer


def _over_limit(environ, action, size, reason):
    """A form over the limit, of *size* bytes at least: refused with 413 (the
    answer returned), or, when it is a form only for a label-blind parser and
    larger than that parser reads (Bottle 0.12 refuses a body over its own
    ``MEMFILE_MAX``, 100 KiB unless the application raised it), passed on as
    received and logged: a large JSON document under its own label must get
    through. One that parser would read is refused too: passed on, it would
    be split on its ';'."""
    if action is REWRITE_BLIND and _beyond_label_blind(size):
        _log_untouched(environ, reason)
        return None
    return _refused(environ, TOO_LARGE, reason)


def _beyond_label_blind(size):
    """Whether a body of *size* bytes is larger than any loaded label-blind parser reads."""
    most = label_blind_limit()
    return most is not None and size > most
