"""The body half of ``wsgi.protect``: rewrite an urlencoded ``wsgi.input`` in memory.

Why: a body's fields are parsed like a query's, so a ``;`` in it smuggles a
field past the same parsers. The rewrite changes the body's length, and
``CONTENT_LENGTH`` must say so before the application reads a byte, so the
body is read whole first, up to a limit; a larger one, or one whose length is
unknown, is left exactly as the server gave it, and that is logged.
"""

import io

__all__ = ["ORIGINAL_BODY", "BodyRewriter"]

#: The environ key holding an urlencoded body as read from the server (bytes),
#: set whenever ``protect()`` read the body.
ORIGINAL_BODY = "urllib_parse_backport.original_body"

_URLENCODED = "application/x-www-form-urlencoded"
_CHUNK = 65536
#: Charsets whose bytes are those of ASCII for ``;&=%+`` (the common names).
_ASCII_CHARSETS = frozenset(["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin-1",
                             "latin1", "windows-1252", "cp1252"])


class BodyRewriter(object):
    """Rewrites the urlencoded body of an environ with *rewrite* (bytes -> bytes).

    *limit*: the largest body read (None: no limit). *warn*: None, or a
    function ``warn(data, stacklevel)`` called with each body read.
    """

    __slots__ = ("_rewrite", "_limit", "_warn")

    def __init__(self, rewrite, limit, warn):
        self._rewrite = rewrite
        self._limit = limit
        self._warn = warn

    def rewrite(self, environ):
        """Replace ``wsgi.input`` and ``CONTENT_LENGTH`` of an urlencoded body."""
        urlencoded = _urlencoded(environ.get("CONTENT_TYPE"))
        if urlencoded is None:
            return
        length = environ.get("CONTENT_LENGTH")
        if not length:
            _log_untouched(environ, "no Content-Length: %s" % (
                environ.get("HTTP_TRANSFER_ENCODING"),))
            return
        try:
            length = int(length)
        except ValueError:  # the server or the application reports it
            return
        if length <= 0:
            return
        if not urlencoded:
            _log_untouched(environ, "charset not ASCII-compatible: %r" % (
                environ.get("CONTENT_TYPE"),))
            return
        if self._limit is not None and length > self._limit:
            _log_untouched(environ, "%d bytes, over max_body_size=%d" % (length, self._limit))
            return
        data = _read(environ["wsgi.input"], length)
        if self._warn is not None:  # names the server code that called protect()
            self._warn(data, stacklevel=4)
        rewritten = self._rewrite(data)
        environ.setdefault(ORIGINAL_BODY, data)  # the outermost protect() read it first
        environ["wsgi.input"] = io.BytesIO(rewritten)
        if rewritten is not data:
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


def _urlencoded(content_type):
    """None if *content_type* is not urlencoded, else whether its charset
    keeps ``;&=%+`` as their ASCII bytes (UTF-16 and UTF-32 do not)."""
    if content_type == _URLENCODED:  # the common case
        return True
    if not content_type:
        return None
    media, _, parameters = content_type.partition(";")
    if media.strip().lower() != _URLENCODED:
        return None
    for parameter in parameters.split(";"):
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset":
            return _ascii_compatible(value.strip().strip('"').lower())
    return True


def _ascii_compatible(charset):
    if charset in _ASCII_CHARSETS:
        return True
    import codecs
    try:
        codec = codecs.lookup(charset)
    except LookupError:  # unknown: parsers fall back to an ASCII-compatible one
        return True
    try:
        return codec.encode(u";&=%+")[0] == b";&=%+"
    except (UnicodeError, TypeError):
        return False


def _log_untouched(environ, reason):
    import logging
    logging.getLogger("urllib_parse_backport").warning(
        "wsgi.protect: %s %r: urlencoded body passed on as received (%s); "
        "a ';' in it can still separate fields", environ.get("REQUEST_METHOD"),
        environ.get("PATH_INFO"), reason)
