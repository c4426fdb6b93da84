"""Percent-decoding owned by the package, so results never depend on the host.

``urllib.parse.unquote`` changed between 3.6 and 3.13 (and 2.7's differs again);
these functions reproduce CPython 3.13's algorithm, which is also 2.7's for
byte strings and, with ``latin-1``, 2.7's for ``unicode``.
"""

#: Two hex digits (as bytes, either case) -> the byte they encode, as in
#: CPython's ``urllib.parse._hextobyte`` and 2.7's ``urlparse._hextochr``.
#: None until the first escape is decoded (see ``hex_to_byte_table``).
HEX_TO_BYTE = None


def hex_to_byte_table():
    """Build :data:`HEX_TO_BYTE` (484 entries) and return it. Built on first use,
    as CPython builds ``_hextobyte``: it costs more than the rest of
    ``import urllib_parse_backport``. The finished table is bound in one step,
    so a thread never sees it half-filled."""
    global HEX_TO_BYTE
    digits = "0123456789ABCDEFabcdef"
    # bytes(bytearray(...)) is one byte of type str on 2.7 and bytes on 3.
    HEX_TO_BYTE = dict(((a + b).encode("ascii"), bytes(bytearray((int(a + b, 16),))))
                       for a in digits for b in digits)
    return HEX_TO_BYTE


def split_ascii_runs(text):
    """Split *text* into alternating non-ASCII and ASCII runs (the ASCII ones at odd
    indexes). The pattern is compiled on first use, so importing stays cheap."""
    global split_ascii_runs
    import re
    split_ascii_runs = re.compile(u"([\x00-\x7f]+)").split
    return split_ascii_runs(text)


def unhexlify(digits):
    """``binascii.unhexlify``, imported on first use: binascii is a shared
    library that ``urllib.parse`` does not load, so importing it up front
    would make ``import urllib_parse_backport`` slower."""
    global unhexlify
    from binascii import unhexlify
    return unhexlify(digits)


def unquote_bytes(data):
    """Decode ``%XX`` escapes in a byte string; malformed escapes stay as they are.

    Mirrors 3.13's ``urllib.parse._unquote_impl`` and 2.7's ``urlparse.unquote``
    for ``str``.
    """
    bits = data.split(b"%")
    escapes = len(bits) - 1
    if not escapes:
        return data
    start = len(bits[0])
    if (len(data) == start + 3 * escapes and type(data) is bytes
            and data[start::3] == b"%" * escapes):
        # Literal prefix, then nothing but '%XX' (fully encoded text): the
        # hex digits decode in one C call if they are all valid.
        try:
            return bits[0] + unhexlify(b"".join(bits[1:]))
        except (ValueError, TypeError):  # binascii.Error; TypeError on 2.7
            pass
    hex_to_byte = HEX_TO_BYTE or hex_to_byte_table()
    try:
        # Fast path: every '%' starts a valid escape (the usual case).
        decoded = [hex_to_byte[item[:2]] + item[2:] for item in bits[1:]]
    except KeyError:
        return _unquote_bits(bits, hex_to_byte)
    return bits[0] + b"".join(decoded)


def _unquote_bits(bits, hex_to_byte):
    """``unquote_bytes`` for pieces split on '%' when some escape is malformed."""
    decoded = [bits[0]]
    append = decoded.append
    lookup = hex_to_byte.get
    for item in bits[1:]:
        byte = lookup(item[:2])
        if byte is None:
            append(b"%")
            append(item)
        else:
            append(byte)
            append(item[2:])
    return b"".join(decoded)


def text_unquoter(encoding, errors):
    """Return ``unquote(text)`` for text known to hold a ``'%'``, as 3.13's
    ``urllib.parse.unquote(text, encoding, errors)`` decodes it.

    Built once per parse so the per-field call does no argument handling.
    """
    if encoding is None:
        encoding = "utf-8"
    if errors is None:
        errors = "replace"

    def unquote(text):
        try:
            data = text.encode("ascii")
        except UnicodeEncodeError:
            return _unquote_mixed(text, encoding, errors)
        return unquote_bytes(data).decode(encoding, errors)

    return unquote


def _unquote_mixed(text, encoding, errors):
    """Each maximal ASCII run is percent-decoded to bytes and decoded with
    *encoding*/*errors*; non-ASCII characters are kept as they are."""
    runs = split_ascii_runs(text)
    for index in range(1, len(runs), 2):
        runs[index] = unquote_bytes(runs[index].encode("ascii")).decode(encoding, errors)
    return u"".join(runs)


def unquote_text(text, encoding, errors):
    """Decode ``%XX`` escapes in text, as 3.13's ``urllib.parse.unquote`` does.

    Each maximal ASCII run is percent-decoded to bytes and decoded with
    *encoding*/*errors*; non-ASCII characters are kept as they are.
    """
    if "%" not in text:
        return text
    return text_unquoter(encoding, errors)(text)
