"""Which ``charset`` parameters let a parser behind see a separator the rewrite cannot.

Why: Django decodes the query (its WSGI handler) and an urlencoded body with
the request's charset before it splits them, so a codec that can write
``&``, ``;``, ``=`` or ``%`` other than as their ASCII bytes (``utf-7``:
``+ADs-`` is ``;``, ``+ACY-`` is ``&``; UTF-16/32, EBCDIC,
``unicode_escape``...) hands it separators that no rewrite of the bytes can
see.

What a parser reads as the charset: ``cgi.parse_header`` (Django to 3.x) and
``email``'s ``get_params`` (Django 4+) take the text from ``charset=`` to the
next ``;`` (quotes, backslash escapes, RFC 2231 ``charset*`` forms and
continuations included), Django's ASGI handler joins repeated headers with
``,``, and Python's codec look-up turns any run of punctuation into ``_``
(``utf,7``, ``"utf;7"`` and ``utf;;;;7`` all name ``utf_7``). So a charset
is read here only in the one spelling every parser reads alike: a token of
letters, digits and ``._:-``, quoted or not, alone up to the next ``;``. Any
other spelling is :data:`UNREADABLE` (treated as unsafe: ambiguity is
refused, not guessed).

The cost holds for any header a client writes: one pass over each value, and
no look-up on the client's text. A name is resolved as ``codecs.lookup``
resolves it through the ``encodings`` package (the same normalisation and
aliases), by this module's own code; ``codecs.lookup`` itself is never
called on it, since the stdlib keeps every name it is asked for
(``encodings._cache`` holds each miss for the life of the process). The
verdict is kept per codec module, a set the interpreter fixes.

Which codecs are safe is derived, not listed: a single-byte codec (a
``decoding_table``, or a ``decoding_map`` on 2.7) is safe when no byte but
its own decodes to ``&``, ``;``, ``=`` or ``%``; the multi-byte and
stateful ones in :data:`ASCII_SAFE_MULTIBYTE` are safe by their design
(ASCII bytes decode to themselves outside a multi-byte sequence, and no
sequence decodes to an ASCII character), which the tests check over every
one- and two-byte sequence after each escape; every other codec is unsafe.
A name Python does not know is safe: Django ignores it and keeps UTF-8.
"""

import re

__all__ = ["ASCII_SAFE_MULTIBYTE", "LINEAR_DECODERS", "UNREADABLE", "SEPARATORS", "codec_module",
           "unsafe_charsets", "decodes_to_fields"]

#: The characters a codec must write only as their own ASCII bytes.
SEPARATORS = u"&;=%"

#: The codec modules (in ``encodings``) without a decoding table that cannot
#: write a separator but as its byte: ASCII itself, UTF-8, and the East Asian
#: multi-byte codecs, stateless (EUC, Shift_JIS, Big5, GBK, GB18030, Johab)
#: and stateful (ISO-2022, HZ), whose multi-byte sequences decode to
#: non-ASCII characters only.
ASCII_SAFE_MULTIBYTE = frozenset([
    "ascii", "latin_1", "utf_8", "utf_8_sig",
    "big5", "big5hkscs", "cp932", "cp949", "cp950", "euc_jis_2004", "euc_jisx0213", "euc_jp",
    "euc_kr", "gb18030", "gb2312", "gbk", "hz", "johab", "shift_jis", "shift_jis_2004",
    "shift_jisx0213", "iso2022_jp", "iso2022_jp_1", "iso2022_jp_2", "iso2022_jp_2004",
    "iso2022_jp_3", "iso2022_jp_ext", "iso2022_kr",
])

#: What :func:`unsafe_charsets` gives for a spelling it cannot read: never a
#: codec name, so :func:`decodes_to_fields` counts it as decoding to fields.
UNREADABLE = "(a charset spelt in a way no check can read)"

# "charset", "charset*", "charset*0", "charset*0*", then "=": case ignored, and
# found inside other parameters' values too (a quoted boundary may hold one).
_PARAMETER = re.compile(r"charset(\*[0-9]*\*?)?\s*=", re.IGNORECASE)
# The one spelling every parser reads alike (the text up to the next ';').
_PLAIN = re.compile(r'\s*("?)([A-Za-z0-9._:-]{1,64})\1\s*\Z')
#: The most characters from ``charset=`` to the next ``;`` that can hold a
#: plain name: past it, :data:`UNREADABLE` with no further reading.
_LONGEST_VALUE = 80
_PUNCTUATION = re.compile(r"[^0-9a-z.]+")

#: The unsafe codecs :func:`decodes_to_fields` decodes a query with: each
#: decodes in one pass of C code, as the single-byte codecs do (their table,
#: through ``codecs.charmap_decode``). Any other, it counts as decoding to
#: fields without decoding: ``punycode`` and ``idna`` are Python code that
#: inserts each character into a copy of the text (quadratic), and 2.7's
#: ``zlib`` and ``bz2`` codecs decompress (a few bytes become gigabytes).
LINEAR_DECODERS = frozenset([
    "utf_7", "utf_16", "utf_16_be", "utf_16_le", "utf_32", "utf_32_be", "utf_32_le",
    "unicode_escape", "raw_unicode_escape", "unicode_internal", "charmap",
])

_modules = []  # [the codec module names of the encodings package], read once
_verdicts = {}  # codec module name -> True (unsafe), False (safe), None (no codec)
_tables = set()  # the codec modules judged by their decoding table (or map)


def unsafe_charsets(content_types):
    """The codecs (``encodings`` module names) that the ``charset`` parameters of
    *content_types* (native strs: one per header a client sent) name and
    that can write a separator other than as its byte, with
    :data:`UNREADABLE` for a spelling read no other way; an empty list in
    the common case. Linear in the values' length."""
    values = list(content_types)
    if len(values) > 1:
        values.append(",".join(values))  # Django's ASGI handler joins them
    found = []
    for value in values:
        if "charset" not in value.lower():
            continue
        end = -1  # the next ';' after the current parameter (found once per stretch)
        for match in _PARAMETER.finditer(value):
            if match.group(1):  # RFC 2231: email decodes and joins what cgi does not
                name = UNREADABLE
            else:
                start = match.end()
                if end < start:
                    end = value.find(";", start)
                    if end < 0:
                        end = len(value)
                if end - start > _LONGEST_VALUE:
                    name = UNREADABLE
                else:
                    plain = _PLAIN.match(value, start, end)
                    if plain is None:
                        name = UNREADABLE
                    else:
                        name = codec_module(plain.group(2))
                        if name is None or not _is_unsafe(name):
                            continue
            if name not in found:
                found.append(name)
    return found


def codec_module(name):
    """The ``encodings`` module that ``codecs.lookup(name)`` would use for *name*,
    an ASCII str, or None where no module of that package is a codec by
    that name. Mirrors the look-up's steps: the name lower-cased, each run
    of characters other than letters, digits and ``.`` made one ``_``
    (``encodings.normalize_encoding``), then the aliases, then the module
    under the name itself."""
    key = _PUNCTUATION.sub("_", name.lower()).strip("_")
    from encodings.aliases import aliases
    aliased = aliases.get(key) or aliases.get(key.replace(".", "_"))
    modules = _codec_modules()
    for candidate in ((aliased, key) if aliased else (key,)):
        if candidate and "." not in candidate and candidate in modules \
                and _verdict(candidate) is not None:
            return candidate
    return None


def _codec_modules():
    """The module names in the ``encodings`` package: a fixed set, read once."""
    if not _modules:
        import encodings
        import pkgutil
        _modules.append(frozenset(name for _, name, _ in
                                  pkgutil.iter_modules(encodings.__path__)))
    return _modules[0]


def _is_unsafe(module):
    return _verdict(module) is not False


def _verdict(module):
    """True when the codec *module* can write a separator other than as its byte,
    False when it cannot, None when the module is no codec (computed once)."""
    if module in _verdicts:
        return _verdicts[module]
    if module in ASCII_SAFE_MULTIBYTE:
        verdict = False
    else:
        import importlib
        try:
            codec = importlib.import_module("encodings." + module)
        except (ImportError, LookupError):  # mbcs, oem; 3.6-3.7's cp65001 raises LookupError
            codec = None
        if not hasattr(codec, "getregentry"):
            verdict = None
        else:
            table = getattr(codec, "decoding_table", None)
            mapping = getattr(codec, "decoding_map", None)
            verdict = _writes_separators(table, mapping)
            if (table is not None and len(table) == 256) or isinstance(mapping, dict):
                _tables.add(module)
    _verdicts[module] = verdict
    return verdict


def _writes_separators(table, mapping):
    """Whether a single-byte codec with the decoding *table* (a str of 256) or
    *mapping* (byte -> code point) decodes some other byte to a separator;
    True (unsafe) for a codec with neither."""
    if table is not None and len(table) == 256:
        return any(table.count(char) != (table[ord(char)] == char) for char in SEPARATORS)
    if isinstance(mapping, dict):
        targets = set(ord(char) for char in SEPARATORS)
        return any(point in targets and point != byte for byte, point in mapping.items())
    return True


def decodes_to_fields(query, charsets):
    """Whether Django, decoding *query* (a native str as the server gave it, or
    bytes) with one of *charsets* (as :func:`unsafe_charsets` gives them)
    before it splits (falling back to latin-1 when it cannot, as ``QueryDict``
    does), would read other text holding ``&``, ``;`` or ``=``. Only the
    codecs that decode in linear time (:data:`LINEAR_DECODERS`, the
    single-byte ones) are tried; any other counts as decoding to fields."""
    if not query or not charsets:
        return False
    raw = query if isinstance(query, bytes) else query.encode("latin-1")
    plain = raw.decode("latin-1")
    for charset in charsets:
        if charset is UNREADABLE or (charset not in LINEAR_DECODERS
                                     and charset not in _tables):
            return True  # unread: a cost out of proportion to the query
        try:
            text = raw.decode(charset)
        except UnicodeDecodeError:
            continue  # Django reads it as latin-1: the bytes the rewrite saw
        except Exception:  # a codec that fails otherwise: refuse rather than guess
            return True
        if text != plain and ("&" in text or ";" in text or "=" in text):
            return True
    return False
