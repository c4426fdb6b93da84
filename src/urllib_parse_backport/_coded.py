"""A form body in a content coding: passed byte for byte, or decoded and handed on, in linear time.

Why decoded: rewriting the coded bytes would break them, and passing them
unread would let a parser that does not decode them (none of the
frameworks does) split them on their ``;``, so a compressed form whose
bytes, as received or decoded, hold a byte the rewrite changes is decoded
here and handed to the application decoded, to be rewritten like any form,
with ``Content-Encoding`` removed and ``Content-Length`` saying its new
length (the middlewares' part). Compressed bytes hold a ``;`` by chance in
a third of small forms and in nearly every one past a kilobyte or so: such
forms were refused before. One that holds none passes byte for byte, as
before. Why this way: a body is one or more gzip or zlib members back to
back, and an attacker chooses how many (a 2.5 MiB body holds 327,680 empty
zlib streams). Each member is fed to its inflater in windows of the body
(never a copy of the rest: ``unused_data`` would copy it once per member),
windows that double from 64 bytes, so that the bytes copied stay within
twice the member's size; the members are counted and bounded
(``max_members``), and so is what they decompress to (``max_body_size``,
asked of the inflater piece by piece: a bomb costs no more output than
that). Why also read raw: ``deflate`` is sent and read both as zlib (RFC
1950, what it names) and as raw deflate (RFC 1951): a body that is not
zlib is decoded raw, and a zlib body that also decodes raw, to bytes
holding a separator, is refused (ambiguity is refused, not guessed).
"""

from ._compat import byte_window
from ._limits import CODED_TOO_LARGE, TOO_MANY_MEMBERS
from ._protect import ENCODED

__all__ = ["coded_form"]

_CODINGS = ("gzip", "x-gzip", "deflate")
_FIRST_WINDOW = 64
_PIECE = 65536


def coded_form(data, coding, rewrite, limits):
    """``(decoded, problem)`` for a form body *data* in the content coding
    *coding*: ``(None, None)`` when it may pass byte for byte (neither its
    bytes nor, for ``gzip``/``x-gzip``/``deflate``, its bytes decoded hold a
    byte that *rewrite* changes); ``(bytes, None)``, the body decoded (not yet
    rewritten), when it must be handed on decoded; ``(None, (answer,
    reason))`` when it is refused: any other coding, or bytes that do not
    decode (``_protect.ENCODED``), more than ``limits.members`` members
    (``_limits.TOO_MANY_MEMBERS``), more than ``limits.body`` bytes decoded
    (``_limits.CODED_TOO_LARGE``), a zlib body that reads otherwise as raw
    deflate (``ENCODED``)."""
    name = coding.strip().lower()
    if name not in _CODINGS:
        if rewrite(data) is not data:
            return None, (ENCODED, "Content-Encoding %r: its bytes hold a separator to "
                          "rewrite" % (coding,))
        return None, (ENCODED, "Content-Encoding %r, whose decoded bytes cannot be checked"
                      % (coding,))
    import zlib
    try:
        pieces, problem = _members(data, limits)
        zlib_read = True
    except zlib.error:
        if name != "deflate":
            return None, (ENCODED, "Content-Encoding %r: bytes that do not decode" % (coding,))
        pieces, problem = _raw(data, limits.body)  # deflate without its zlib header
        if pieces is None:
            return None, (ENCODED, "Content-Encoding %r: bytes that do not decode" % (coding,))
        zlib_read = False  # no reader of zlib reads it: no second reading to weigh
    if problem is not None:
        return None, _answer(problem, coding, limits, "")
    decoded = b"".join(pieces)
    if zlib_read:
        problem = _raw_reading_problem(data, coding, rewrite, limits)
        if problem is not None:
            return None, problem
    if rewrite(data) is data and rewrite(decoded) is decoded:
        return None, None
    return decoded, None


def _members(data, limits):
    """``(pieces, problem)``: *data* decoded as gzip or zlib members back to back
    (the pieces of output), or with :data:`TOO_MANY_MEMBERS` or
    :data:`CODED_TOO_LARGE`. Raises ``zlib.error`` for bytes that do not decode."""
    import zlib
    limit, size = limits.body, len(data)
    offset = total = members = 0
    pieces = []
    while offset < size:  # one gzip or zlib member after another
        members += 1
        if members > limits.members:
            return pieces, TOO_MANY_MEMBERS
        decoder = zlib.decompressobj(32 + zlib.MAX_WBITS)  # a gzip or zlib header
        window = _FIRST_WINDOW
        while True:
            fed = byte_window(data, offset, window)
            total, problem = _drain(decoder, fed, total, limit, pieces.append)
            if problem is not None:
                return pieces, problem
            unused = len(decoder.unused_data)  # past the member's end
            offset += len(fed) - unused
            if unused or offset >= size:
                break
            window = min(window * 2, _PIECE)
    return pieces, None


def _raw(data, limit):
    """``(pieces, problem)``: *data* decoded as one raw deflate stream (what
    follows the stream's end is dropped, as a raw reader drops it), or with
    :data:`CODED_TOO_LARGE`; ``(None, None)`` when it does not decode."""
    import zlib
    decoder = zlib.decompressobj(-zlib.MAX_WBITS)
    offset, total, size, pieces = 0, 0, len(data), []
    try:
        while offset < size and not decoder.unused_data:
            fed = byte_window(data, offset, _PIECE)
            offset += len(fed)
            total, problem = _drain(decoder, fed, total, limit, pieces.append)
            if problem is not None:
                return pieces, problem
    except zlib.error:
        return None, None
    return pieces, None


def _raw_reading_problem(data, coding, rewrite, limits):
    """None, or ``(answer, reason)`` when *data*, read as a raw deflate stream
    (RFC 1951, no zlib or gzip header: what many clients send, and readers
    read, for ``deflate``), decodes to a byte *rewrite* changes, or to more
    than ``limits.body`` bytes. A body can be both a zlib stream and a raw
    one that decode to different bytes (the zlib header's first byte opens a
    stored block when read raw); an honest zlib or gzip body read raw fails
    at its first bytes (and what came before an error is checked too). Fed
    in windows, as the members are: linear in the body."""
    import zlib

    def check(piece):
        return ENCODED if rewrite(piece) is not piece else None
    decoder = zlib.decompressobj(-zlib.MAX_WBITS)
    offset, total, size = 0, 0, len(data)
    try:
        while offset < size:
            fed = byte_window(data, offset, _PIECE)
            offset += len(fed)
            total, problem = _drain(decoder, fed, total, limits.body, check)
            if problem is not None:
                return _answer(problem, coding, limits, "read as raw deflate, ")
            if decoder.unused_data:  # the raw stream ended: a reader stops there
                break
    except zlib.error:
        pass  # a raw reader stops here too, with what was checked above
    return None


def _drain(decoder, fed, total, limit, take):
    """Decompress *fed* with *decoder*, in pieces of at most 64 KiB, each given to
    *take* (which returns None, or a problem that stops the decoding): ``(bytes
    decoded so far, None)``, or with :data:`CODED_TOO_LARGE` past *limit*
    (*total* is what came before), or with what *take* returned."""
    piece = decoder.decompress(fed, _PIECE)
    while True:
        total += len(piece)
        if limit is not None and total > limit:
            return total, CODED_TOO_LARGE
        if piece:
            problem = take(piece)
            if problem is not None:
                return total, problem
        tail = decoder.unconsumed_tail
        if not tail:
            return total, None
        piece = decoder.decompress(tail, _PIECE)


def _answer(problem, coding, limits, reading):
    """``(answer, reason)`` for what :func:`_drain` found, read as *reading* says."""
    if problem is CODED_TOO_LARGE:
        return problem, "%sdecompresses to over max_body_size=%d" % (reading, limits.body)
    if problem is TOO_MANY_MEMBERS:
        return problem, "more than max_members=%d compressed members" % (limits.members,)
    return problem, "Content-Encoding %r: %sthe bytes it decodes to hold a separator to " \
        "rewrite" % (coding, reading)
