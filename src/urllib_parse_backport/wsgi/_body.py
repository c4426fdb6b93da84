"""The body half of ``wsgi.protect``: rewrite every request body a parser could read as a form.

Which bodies are forms, and their rewrite, is ``_protect``'s rule (shared
with ``asgi.protect``). The rewrite changes the body's length, and
``CONTENT_LENGTH`` must say so before the application reads a byte, so a
body with a length is read first, up to a limit. A body without one
(chunked, ``wsgi.input_terminated``) is rewritten as the application reads
it: the rewrite is byte-local, so no more than one read is held. A chunked
body the server hands over with its framing (wsgiref) is read chunk by chunk
to its last chunk, and a form is handed on as one chunk.
"""

import io

from .._protect import (BAD_LENGTH, FORM, NOT_FORM, TOO_LARGE, body_kind, has_form_bytes,
                        is_json_or_markup, log_refused, log_untouched,
                        form_whatever_its_bytes)
from ._input import Input

__all__ = ["ORIGINAL_BODY", "BodyRewriter"]

#: The environ key holding the body as read from the server (bytes), set
#: whenever ``protect()`` read the whole body before the application ran.
ORIGINAL_BODY = "urllib_parse_backport.original_body"

_CHUNK = 65536


class BodyRewriter(object):
    """Rewrites the body of an environ with *rewrite* (bytes -> bytes, byte by byte).
    *limit*: the largest body read ahead (None: no limit). *warn*: None, or a
    function ``warn(data, stacklevel)`` called once per body that is rewritten.
    """

    __slots__ = ("_rewrite", "_limit", "_warn")

    def __init__(self, rewrite, limit, warn):
        self._rewrite = rewrite
        self._limit = limit
        self._warn = warn

    def rewrite(self, environ):
        """Replace ``wsgi.input`` (and ``CONTENT_LENGTH``) of a body a parser reads as a form.

        Returns None, or the answer (``_protect.TOO_LARGE``, ``BAD_LENGTH``) to
        a request that must be refused: a form larger than the limit (see
        :func:`_over_limit`), or with a Content-Length that is not a number,
        which could not be rewritten and must not reach a parser as received."""
        kind = body_kind(environ.get("CONTENT_TYPE") or "")
        if kind == NOT_FORM:
            return
        declared = kind == FORM
        length = environ.get("CONTENT_LENGTH")
        if length:
            try:
                length = int(length)
            except ValueError:
                length = -1
            if length < 0:  # cgi.FieldStorage would read to the end of the stream
                return _refused(environ, BAD_LENGTH, "Content-Length %r is not a number of "
                                "bytes" % (environ["CONTENT_LENGTH"],))
            if length == 0:
                return
        elif _raw_chunked(environ):
            return self._rewrite_framed(environ, declared)
        elif declared:
            # No length: the server de-chunked the body and ends the stream.
            environ["wsgi.input"] = Input(b"", environ["wsgi.input"], self._rewrite,
                                          self._warn)
            return
        elif environ.get("wsgi.input_terminated"):
            length = None  # read to the end of the stream, which the server marks
        else:
            _log_untouched(environ, "no Content-Length and no wsgi.input_terminated")
            return
        if not declared:
            data = self._read_ahead(environ, length)
            if data is _TOO_LARGE:
                return _over_limit(environ, "over max_body_size=%d" % (self._limit,))
            if data:  # b"": no body (a GET on a server that ends every stream)
                self._hand_over(environ, data, length, is_json_or_markup)
        elif self._limit is not None and length > self._limit:
            return _over_limit(environ, "%d bytes, over max_body_size=%d" % (length, self._limit))
        else:
            self._hand_over(environ, _read(environ["wsgi.input"], length), length, None)

    def guard(self, environ):
        """A request with no length, no framing and no end of stream: HTTP gives
        it no body, but a server that hands the connection on as it is
        (wsgiref) lets a reader that reads to the end of the stream
        (``cgi.FieldStorage`` without a length) read whatever the client sends
        until it closes. For a form (labelled, or unlabelled, which cgi reads
        as one), that stream is rewritten as it is read; nothing is read here."""
        content_type = environ.get("CONTENT_TYPE") or ""
        if form_whatever_its_bytes(body_kind(content_type), bool(content_type)):
            environ["wsgi.input"] = Input(b"", environ["wsgi.input"], self._rewrite, self._warn)

    def _rewrite_framed(self, environ, declared):
        """A chunked body whose framing the server left in the stream (wsgiref:
        ``Transfer-Encoding: chunked``, no ``CONTENT_LENGTH``, no
        ``wsgi.input_terminated``), which the application de-chunks itself
        (Bottle does). The chunks are read as far as the last one, never
        further, so the read cannot wait for a byte the client will not send;
        a form comes back rewritten as one chunk, anything else as it came;
        one over the limit is refused (the answer is returned) or passed on,
        as :func:`_over_limit` decides."""
        stream = environ["wsgi.input"]
        raw, data, problem = _read_chunks(stream, self._limit,
                                          None if declared else has_form_bytes)
        if problem is None:
            environ.setdefault(ORIGINAL_BODY, data)  # read whole, as a body with a length
            rewritten = self._rewrite(data)
            if rewritten is not data and (declared or not is_json_or_markup(data)):
                if self._warn is not None:
                    self._warn(data, stacklevel=4)
                raw = b"%x\r\n%s\r\n0\r\n" % (len(rewritten), rewritten) if rewritten \
                    else b"0\r\n"
            environ["wsgi.input"] = Input(raw, stream, None, None)  # trailers follow
        elif problem is _NOT_A_FORM:
            environ["wsgi.input"] = Input(raw, stream, None, None)
        elif problem is _TOO_LARGE:
            environ["wsgi.input"] = Input(raw, stream, None, None)
            return _over_limit(environ, "chunked, over max_body_size=%d" % (self._limit,))
        else:
            # A broken frame: every ';' from here on is escaped, which can break
            # the framing the application reads but never lets a ';' through to
            # split a field.
            environ["wsgi.input"] = Input(self._rewrite(raw), stream, self._rewrite,
                                          self._warn)

    def _read_ahead(self, environ, length):
        """The unlabelled body (of *length* bytes, or to its end for None) if
        it has the shape of a form and fits the limit; else None, or
        :data:`_TOO_LARGE` if it has that shape as far as the limit, with the
        bytes read put back in front of the server's stream."""
        stream, limit = environ["wsgi.input"], self._limit
        chunks, size = [], 0
        while length is None or size < length:
            want = _CHUNK if length is None else min(length - size, _CHUNK)
            if limit is not None:
                want = min(want, limit + 1 - size)  # one byte over tells "too large"
            chunk = stream.read(want)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
            if not has_form_bytes(chunk):
                break
            if limit is not None and size > limit:
                environ["wsgi.input"] = Input(b"".join(chunks), stream, None, None)
                return _TOO_LARGE
        else:
            return b"".join(chunks)
        environ["wsgi.input"] = Input(b"".join(chunks), stream, None, None)
        return None

    def _hand_over(self, environ, data, length, exempt):
        """Give the application *data* rewritten (unless *exempt(data)*) as its stream."""
        rewritten = self._rewrite(data)
        if rewritten is not data and exempt is not None and exempt(data):
            rewritten = data
        if rewritten is not data and self._warn is not None:
            self._warn(data, stacklevel=5)  # names the server code that called protect()
        environ.setdefault(ORIGINAL_BODY, data)  # the outermost protect() read it first
        environ["wsgi.input"] = io.BytesIO(rewritten)
        if rewritten is not data and length is not None:
            # A short read stays short by as much as the server's stream was.
            environ["CONTENT_LENGTH"] = str(length + len(rewritten) - len(data))


def _read(stream, length):
    """Up to *length* bytes of *stream*; ``read(n)`` may return less (PEP 3333)."""
    data = stream.read(min(length, _CHUNK))
    if len(data) == length or not data:  # the common case: one read
        return data
    chunks = [data]
    length -= len(data)
    while length > 0:
        chunk = stream.read(min(length, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        length -= len(chunk)
    return b"".join(chunks)


def _raw_chunked(environ):
    """Whether the stream holds a chunked body with its framing (the server did not
    de-chunk it: it gives neither a length nor ``wsgi.input_terminated``)."""
    return ("chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
            and not environ.get("wsgi.input_terminated"))


_NOT_A_FORM, _TOO_LARGE, _BROKEN = "not a form", "too large", "broken framing"


def _read_chunks(stream, limit, shape):
    """Read chunked framing from *stream* up to and with the last-chunk line
    ``0\r\n`` (the trailers, if any, stay in the stream, as for a parser that
    stops there: Bottle's does).

    Returns ``(raw, body, problem)``: the bytes read, the body de-chunked, and
    None, or why reading stopped early: a chunk *shape(data)* refuses
    (:data:`_NOT_A_FORM`), a body over *limit* bytes (:data:`_TOO_LARGE`), a
    size line or chunk end that is not ``hex[;extensions]\r\n``/``\r\n``
    (:data:`_BROKEN`). Sizes are read as Bottle reads them, ``int(text, 16)``.

    Both are gathered in a ``bytearray``: kept as lists of pieces, a body sent
    in one-byte chunks took 263 bytes of memory per byte of body at its peak
    (3.13), now 14.
    """
    raw, pieces = bytearray(), bytearray()
    while True:
        line = stream.readline(_CHUNK)
        raw += line
        if not line.endswith(b"\r\n"):
            return bytes(raw), None, _BROKEN
        try:
            count = int(line[:-2].split(b";", 1)[0].strip().decode("ascii"), 16)
        except (ValueError, UnicodeDecodeError):
            return bytes(raw), None, _BROKEN
        if count < 0:
            return bytes(raw), None, _BROKEN
        if count == 0:
            return bytes(raw), bytes(pieces), None
        if limit is not None and len(pieces) + count > limit:
            return bytes(raw), None, _TOO_LARGE
        chunk = _read(stream, count + 2)
        raw += chunk
        if len(chunk) != count + 2 or chunk[-2:] != b"\r\n":
            return bytes(raw), None, _BROKEN
        pieces += chunk[:-2]
        if shape is not None and not shape(chunk[:-2]):
            return bytes(raw), None, _NOT_A_FORM


def _log_untouched(environ, reason):
    log_untouched("wsgi", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"), reason)


def _refused(environ, answer, reason):
    log_refused("wsgi", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"), answer, reason)
    return answer


def _over_limit(environ, reason):
    """A body over the limit that may be a form: refused (the answer returned) or
    passed on as received and logged, as ``_protect.form_whatever_its_bytes`` says."""
    content_type = environ.get("CONTENT_TYPE") or ""
    if form_whatever_its_bytes(body_kind(content_type), bool(content_type)):
        return _refused(environ, TOO_LARGE, reason)
    _log_untouched(environ, reason)
    return None
