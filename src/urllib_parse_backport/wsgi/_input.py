"""The stream a WSGI application reads once ``protect()`` has read part of the body.

Why a module of its own: ``_body`` decides what to read and rewrite; this
is the file-like object that hands the application what was read (the
head), then the server's stream, both through the same rewrite.
"""

__all__ = ["Input"]


class Input(object):
    """``wsgi.input`` for the application: *head* (bytes already read), then
    what *stream* gives, through *translate* (None: as it is).

    Reads as the server's stream does (PEP 3333): ``read(n)`` asks the
    server for no more than *n* bytes, ``readline()`` for one line, and the
    end of the server's stream is the end of this one. The head is read from
    an offset, never cut down by each read: cutting it copies what is left,
    so reading it in small pieces would take time quadratic in its size
    (docs/performance.rst, "WSGI middleware").
    """

    __slots__ = ("_head", "_at", "_stream", "_translate", "_warn")

    def __init__(self, head, stream, translate, warn):
        self._head = head
        self._at = 0  # where the unread part of the head starts
        self._stream = stream
        self._translate = translate
        self._warn = warn

    def _extend(self, data):
        """The unread head, then *data* (bytes from the server, translated)."""
        self._head = self._head[self._at:] + data
        self._at = 0

    def _take(self, end):
        """The head up to *end*, read."""
        data = self._head[self._at:end]
        self._at = end
        return data

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
            self._extend(self._pull(self._stream.read(*size)))
            return self._take(len(self._head))
        unread = len(self._head) - self._at
        if unread < limit:
            # Each byte read gives at least one byte out: never over-read.
            self._extend(self._pull(self._stream.read(limit - unread)))
        return self._take(min(self._at + limit, len(self._head)))

    def readline(self, *size):
        limit = _size(size)
        unread = len(self._head) - self._at
        # Looked for within the line asked for, never to the end of the head:
        # reading a long head without a newline a few bytes a line would
        # otherwise scan it once per line (quadratic).
        stop = len(self._head) if limit < 0 else min(len(self._head), self._at + limit)
        newline = self._head.find(b"\n", self._at, stop)
        if newline < 0 and (limit < 0 or unread < limit):
            if limit < 0:
                self._extend(self._pull(self._stream.readline(*size)))
            else:
                self._extend(self._pull(self._stream.readline(limit - unread)))
            newline = self._head.find(b"\n", unread)  # the unread part has none
        end = newline + 1 if newline >= 0 else len(self._head)
        if limit >= 0:
            end = min(end, self._at + limit)
        return self._take(end)

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
