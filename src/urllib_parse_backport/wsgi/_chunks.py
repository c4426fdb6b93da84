"""The chunked framing wsgiref leaves in ``wsgi.input``, read as far as its last chunk.

Why a module of its own: ``_body`` decides what to do with a body; this
reads the bytes of one, with a length (:func:`read`) or in chunked framing
(:func:`read_chunks`), never past its end (a read past it would wait for
bytes the client does not send), and within bounds that keep the work
linear with a small constant: an attacker chooses the chunks' sizes.
"""

__all__ = ["CHUNK", "read", "read_chunks", "TOO_LARGE_CHUNKED", "BROKEN", "TOO_MANY",
           "MOST_CHUNKS", "LEAST_AVERAGE"]

#: The most bytes asked of the server's stream in one read, or one line.
CHUNK = 65536


def read(stream, length):
    """Up to *length* bytes of *stream*; ``read(n)`` may return less (PEP 3333)."""
    data = stream.read(min(length, CHUNK))
    if len(data) == length or not data:  # the common case: one read
        return data
    chunks = [data]
    length -= len(data)
    while length > 0:
        chunk = stream.read(min(length, CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        length -= len(chunk)
    return b"".join(chunks)


TOO_LARGE_CHUNKED, BROKEN, TOO_MANY = "too large", "broken framing", "too many chunks"
#: The chunks of a framed body read ahead and framed anew: any number up to
#: the first, past it as many as average the second in bytes. Each costs a
#: few Python steps, and an attacker writes them one byte long (2.5 MiB of
#: them cost 0.3 to 0.6 s); honest clients write few, large ones (curl: 16
#: kB). Past it, the request is refused (``_limits.TOO_MANY_CHUNKS``).
MOST_CHUNKS, LEAST_AVERAGE = 1024, 1024


def read_chunks(stream, limit):
    """Read chunked framing from *stream* up to and with the last-chunk line
    ``0\r\n`` (the trailers, if any, stay in the stream, as for a parser that
    stops there: Bottle's does).

    Returns ``(raw, body, problem)``: the bytes read, the body de-chunked (for
    :data:`TOO_LARGE_CHUNKED`, the least size it announced), and
    None, or why reading stopped early: a body over *limit* bytes, or framing
    (chunk extensions) past it by more than a line (:data:`TOO_LARGE_CHUNKED`), a
    size line or chunk end that is not ``hex[;extensions]\r\n``/``\r\n``
    (:data:`BROKEN`), more than :data:`MOST_CHUNKS` chunks averaging under
    :data:`LEAST_AVERAGE` bytes (:data:`TOO_MANY`). Sizes are read as
    Bottle reads them, ``int(text, 16)``. Both are gathered in a
    ``bytearray``, which holds a body of one-byte chunks in about as many
    bytes as it has (a list of pieces would hold an object per chunk).
    """
    raw, pieces = bytearray(), bytearray()
    chunks = 0
    while True:
        line = stream.readline(CHUNK)
        raw += line
        if limit is not None and len(raw) > limit + CHUNK:
            return bytes(raw), len(pieces), TOO_LARGE_CHUNKED
        if not line.endswith(b"\r\n"):
            return bytes(raw), None, BROKEN
        try:
            count = int(line[:-2].split(b";", 1)[0].strip().decode("ascii"), 16)
        except (ValueError, UnicodeDecodeError):
            return bytes(raw), None, BROKEN
        if count < 0:
            return bytes(raw), None, BROKEN
        if count == 0:
            return bytes(raw), bytes(pieces), None
        chunks += 1
        if chunks > MOST_CHUNKS and chunks * LEAST_AVERAGE > len(pieces) + count:
            return bytes(raw), None, TOO_MANY
        if limit is not None and len(pieces) + count > limit:
            return bytes(raw), len(pieces) + count, TOO_LARGE_CHUNKED
        chunk = read(stream, count + 2)
        raw += chunk
        if len(chunk) != count + 2 or chunk[-2:] != b"\r\n":
            return bytes(raw), None, BROKEN
        pieces += chunk[:-2]
