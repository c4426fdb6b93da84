"""The body half of ``wsgi.protect``: rewrite every request body a parser could read as a form.

Which bodies are forms, and their rewrite, is ``_protect``'s rule (shared
with ``asgi.protect``). The rewrite changes the body's length, and
``CONTENT_LENGTH`` must say so before the application reads a byte, so a
body with a length is read first, up to a limit. A body without one
(chunked, ``wsgi.input_terminated``) is rewritten as the application reads
it: the rewrite is byte-local, so no more than one read is held.
"""

import io

from .._protect import FORM, NOT_FORM, body_kind, has_form_bytes, is_json_or_markup, log_untouched

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
        """Replace ``wsgi.input`` (and ``CONTENT_LENGTH``) of a body a parser reads as a form."""
        kind = body_kind(environ.get("CONTENT_TYPE") or "")
        if kind == NOT_FORM:
            return
        declared = kind == FORM
        length = environ.get("CONTENT_LENGTH")
        if length:
            try:
                length = int(length)
            except ValueError:  # the server or the application reports it
                return
            if length <= 0:
                return
        elif declared:
            # No length: the server de-chunked the body and ends the stream.
            environ["wsgi.input"] = _Input(b"", environ["wsgi.input"], self._rewrite,
                                           self._warn)
            return
        elif environ.get("wsgi.input_terminated"):
            length = None  # read to the end of the stream, which the server marks
        else:
            _log_untouched(environ, "no Content-Length and no wsgi.input_terminated")
            return
        if not declared:
            data = self._read_ahead(environ, length)
            if data is not None:
                self._hand_over(environ, data, length, is_json_or_markup)
        elif self._limit is not None and length > self._limit:
            _log_untouched(environ, "%d bytes, over max_body_size=%d" % (length, self._limit))
        else:
            self._hand_over(environ, _read(environ["wsgi.input"], length), length, None)

    def _read_ahead(self, environ, length):
        """The unlabelled body (of *length* bytes, or to its end for None) if
        it has the shape of a form and fits the limit; else None, with the
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
                _log_untouched(environ, "over max_body_size=%d" % (limit,))
                break
        else:
            return b"".join(chunks)
        environ["wsgi.input"] = _Input(b"".join(chunks), stream, None, None)
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


class _Input(object):
    """``wsgi.input`` for the application: *head* (bytes already read), then
    what *stream* gives, through *translate* (None: as it is).

    Reads as the server's stream does (PEP 3333): ``read(n)`` asks the
    server for no more than *n* bytes, ``readline()`` for one line, and the
    end of the server's stream is the end of this one.
    """

    __slots__ = ("_head", "_stream", "_translate", "_warn")

    def __init__(self, head, stream, translate, warn):
        self._head = head
        self._stream = stream
        self._translate = translate
        self._warn = warn

    def _pull(self, data):
        if self._translate is None or not data:
            return data
        translated = self._translate(data)
        if translated is not data and self._warn is not None:
            warn, self._warn = self._warn, None  # once per body
            warn(data, stacklevel=4)  # names the code that read the body
        return translated

    def read(self, *size):
        limit = _size(size)
        if limit < 0:
            data, self._head = self._head + self._pull(self._stream.read(*size)), b""
            return data
        if len(self._head) < limit:
            # Each byte read gives at least one byte out: never over-read.
            self._head += self._pull(self._stream.read(limit - len(self._head)))
        data, self._head = self._head[:limit], self._head[limit:]
        return data

    def readline(self, *size):
        limit = _size(size)
        if b"\n" not in self._head and (limit < 0 or len(self._head) < limit):
            if limit < 0:
                self._head += self._pull(self._stream.readline(*size))
            else:
                self._head += self._pull(self._stream.readline(limit - len(self._head)))
        end = self._head.find(b"\n") + 1 or len(self._head)
        if limit >= 0:
            end = min(end, limit)
        line, self._head = self._head[:end], self._head[end:]
        return line

    def readlines(self, hint=-1):
        lines, total = [], 0
        for line in iter(self.readline, b""):
            lines.append(line)
            total += len(line)
            if hint is not None and 0 < hint <= total:
                break
        return lines

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__  # Python 2


def _size(args):
    """The size argument of ``read``/``readline``: -1 for all (absent, None, negative)."""
    if not args or args[0] is None:
        return -1
    return args[0]


def _log_untouched(environ, reason):
    log_untouched("wsgi", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"), reason)
