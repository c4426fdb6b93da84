"""A form body in a content coding: checked, never rewritten, in time linear in its size.

Why checked: rewriting the coded bytes would break them, and passing them
unread would let a parser that does not decode them (none of the
frameworks does) split them on their ``;``; an application that decodes
them itself must find no ``;`` either. Why this way: a body is one or more
gzip or zlib members back to back, and an attacker chooses how many (a 2.5
MiB body holds 327,680 empty zlib streams). Each member is fed to its
inflater in windows of the body (never a copy of the rest: ``unused_data``
would copy it once per member), windows that double from 64 bytes, so that
the bytes copied stay within twice the member's size; the members are
counted and bounded (``max_members``), and so is what they decompress to
(``max_body_size``). Why also read raw: ``deflate`` is sent and read both
as zlib (RFC 1950, what it names) and as raw deflate (RFC 1951), and one
body can be both, decoding to different bytes.
"""

from ._compat import byte_window
from ._limits import CODED_TOO_LARGE, TOO_MANY_MEMBERS
from ._protect import ENCODED

__all__ = ["coded_form_problem"]

_CODINGS = ("gzip", "x-gzip", "deflate")
_FIRST_WINDOW = 64
_PIECE = 65536


def coded_form_problem(data, coding, rewrite, limits):
    """None when a form body *data* in the content coding *coding* may pass byte
    for byte: neither its bytes as received nor, for ``gzip``/``x-gzip``/
    ``deflate``, its bytes decoded (as their headers say, and as raw
    deflate) hold a byte that *rewrite* changes; otherwise ``(answer,
    reason)``. Any other coding, or bytes that do not decode, cannot be
    checked and do not pass (``_protect.ENCODED``); more
    than ``limits.members`` members, ``_limits.TOO_MANY_MEMBERS``; more than
    ``limits.body`` bytes decoded, ``_limits.CODED_TOO_LARGE``."""
    if rewrite(data) is not data:
        return ENCODED, "Content-Encoding %r: its bytes hold a separator to rewrite" % (coding,)
    if coding.strip().lower() not in _CODINGS:
        return ENCODED, "Content-Encoding %r, whose decoded bytes cannot be checked" % (coding,)
    import zlib
    limit, size = limits.body, len(data)
    offset = total = members = 0
    try:
        while offset < size:  # one gzip or zlib member after another
            members += 1
            if members > limits.members:
                return TOO_MANY_MEMBERS, "more than max_members=%d compressed members" \
                    % (limits.members,)
            decoder = zlib.decompressobj(32 + zlib.MAX_WBITS)  # a gzip or zlib header
            window = _FIRST_WINDOW
            while True:
                fed = byte_window(data, offset, window)
                total, problem = _drain(decoder, fed, total, limit, rewrite)
                if problem is not None:
                    return _answer(problem, coding, limit, "")
                unused = len(decoder.unused_data)  # past the member's end
                offset += len(fed) - unused
                if unused or offset >= size:
                    break
                window = min(window * 2, _PIECE)
    except zlib.error:
        return ENCODED, "Content-Encoding %r: bytes that do not decode" % (coding,)
    return _raw_reading_problem(data, coding, rewrite, limit)


def _raw_reading_problem(data, coding, rewrite, limit):
    """None, or ``(answer, reason)`` when *data*, read as a raw deflate stream
    (RFC 1951, no zlib or gzip header: what many clients send, and readers
    read, for ``deflate``), decodes to a byte *rewrite* changes, or to more
    than *limit* bytes. A body can be both a zlib stream and a raw one that
    decode to different bytes (the zlib header's first byte opens a stored
    block when read raw); an honest zlib or gzip body read raw fails at its
    first bytes (and what came before an error is checked too). Fed in
    windows, as the members are: linear in the body."""
    import zlib
    decoder = zlib.decompressobj(-zlib.MAX_WBITS)
    offset, total, size = 0, 0, len(data)
    try:
        while offset < size:
            fed = byte_window(data, offset, _PIECE)
            offset += len(fed)
            total, problem = _drain(decoder, fed, total, limit, rewrite)
            if problem is not None:
                return _answer(problem, coding, limit, "read as raw deflate, ")
            if decoder.unused_data:  # the raw stream ended: a reader stops there
                break
    except zlib.error:
        pass  # a raw reader stops here too, with what was checked above
    return None


def _drain(decoder, fed, total, limit, rewrite):
    """Decompress *fed* with *decoder*, in pieces of at most 64 KiB, checking each:
    ``(bytes decoded so far, None)``, or with :data:`CODED_TOO_LARGE` past *limit*
    (*total* is what came before), or :data:`ENCODED` for a byte *rewrite* changes."""
    piece = decoder.decompress(fed, _PIECE)
    while True:
        total += len(piece)
        if limit is not None and total > limit:
            return total, CODED_TOO_LARGE
        if piece and rewrite(piece) is not piece:
            return total, ENCODED
        tail = decoder.unconsumed_tail
        if not tail:
            return total, None
        piece = decoder.decompress(tail, _PIECE)


def _answer(problem, coding, limit, reading):
    """``(answer, reason)`` for what :func:`_drain` found, read as *reading* says."""
    if problem is CODED_TOO_LARGE:
        return problem, "%sdecompresses to over max_body_size=%d" % (reading, limit)
    return problem, "Content-Encoding %r: %sthe bytes it decodes to hold a separator to " \
        "rewrite" % (coding, reading)
