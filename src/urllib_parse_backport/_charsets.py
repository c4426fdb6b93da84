"""Which ``charset`` parameters let a parser behind see a separator the rewrite cannot.

Why: Django decodes the query (its WSGI handler) and an urlencoded body with
the request's charset before it splits them, so a codec that can write
``&``, ``;`` or ``=`` other than as their ASCII bytes (``utf-7``: ``+ADs-`` is
``;``, ``+ACY-`` is ``&``; UTF-16/32, EBCDIC, ``unicode_escape``...) hands it
separators that no rewrite of the bytes can see. What the parsers do with the
parameter decides which spellings count:

* ``cgi.parse_header`` (Django to 3.x) keeps a quoted value whole, ``;`` and
  ``,`` included, and the last ``charset`` wins;
* ``email``'s ``get_params`` (Django 4+) also decodes RFC 2231 values
  (``charset*=utf-16le''u%00t%00f%00-%007%00``, in the encoding they
  declare) and joins continuations (``charset*0=utf-; charset*1=7``);
* Python's codec lookup turns any run of punctuation into ``_``, so
  ``utf,7``, ``"utf;7"`` and ``utf;;;;7`` all name ``utf_7``;
* Django's ASGI handler joins repeated headers with ``,``.

So every reading counts: each ``charset`` parameter, quoted or not, read to
each ``;`` or ``,`` after it and to the end; a spelling this cannot read (a
continuation, an RFC 2231 value in another encoding, a value with more
separators than any codec name) is unsafe. A name Python does not know is
safe: Django ignores it and keeps UTF-8.
"""

import codecs
import re

__all__ = ["ASCII_TRANSPARENT", "UNREADABLE", "unsafe_charsets", "decodes_to_fields"]

#: The codecs (by ``codecs.lookup(name).name``) that decode every ASCII byte
#: to itself and no other byte, or sequence of bytes, to an ASCII character:
#: a charset naming one of them cannot spell a separator but as its byte.
ASCII_TRANSPARENT = frozenset([
    "ascii", "utf-8", "utf-8-sig", "iso8859-1", "iso8859-2", "iso8859-3", "iso8859-4",
    "iso8859-5", "iso8859-6", "iso8859-7", "iso8859-8", "iso8859-9", "iso8859-10",
    "iso8859-11", "iso8859-13", "iso8859-14", "iso8859-15", "iso8859-16",
    "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
    "cp1258", "koi8-r", "koi8-u", "mac-roman", "mac-cyrillic", "mac-greek",
    "cp437", "cp850", "cp852", "cp866", "cp874",
    "shift_jis", "cp932", "euc_jp", "euc_kr", "cp949", "gb2312", "gbk", "gb18030",
    "big5", "cp950", "big5hkscs",
])

#: What :func:`unsafe_charsets` gives for a spelling it cannot read: never a
#: codec name, so :func:`decodes_to_fields` counts it as decoding to fields.
UNREADABLE = "(a charset spelt in a way no check can read)"

_PARAMETER = re.compile(r"charset(\*[0-9]*\*?)?\s*=\s*", re.IGNORECASE)
_BOUNDARY = re.compile(r"[;,]")
#: More ';' or ',' than this after one charset=: no codec name has them.
_MOST_BOUNDARIES = 64
#: The encodings an RFC 2231 value may declare and still be read here.
_PLAIN_2231 = ("", "us-ascii", "ascii", "utf-8", "utf8", "iso-8859-1", "latin-1", "latin1")
_checked = {}  # name -> unsafe (bool): the answer for each name seen


def unsafe_charsets(content_types):
    """Every charset that *content_types* (native strs) name in some reading and
    that is a codec Python knows but not an :data:`ASCII_TRANSPARENT` one,
    or :data:`UNREADABLE`; an empty list in the common case."""
    values = list(content_types)
    if len(values) > 1:
        values.append(",".join(values))  # Django's ASGI handler joins them
    found = []
    for value in values:
        if "charset" not in value.lower():
            continue
        for match in _PARAMETER.finditer(value):
            for name in _readings(match.group(1) or "", value[match.end():]):
                if name is UNREADABLE or _is_unsafe(name):
                    if name not in found:
                        found.append(name)
    return found


def _readings(star, rest):
    """The names a parser may read in the value that starts *rest* of a charset
    parameter written ``charset`` + *star* ``=``."""
    if star.strip("*"):
        return [UNREADABLE]  # an RFC 2231 continuation: email joins the parts
    boundaries = [m.start() for m in _BOUNDARY.finditer(rest)]
    if len(boundaries) > _MOST_BOUNDARIES:
        return [UNREADABLE]
    names = [rest[:end] for end in boundaries + [len(rest)]]
    if rest[:1] == '"':  # a quoted string, as cgi.parse_header and email read it
        end = re.match(r'"((?:[^"\\]|\\.)*)"?', rest)
        names.append(re.sub(r"\\(.)", r"\1", end.group(1)))
    names = [name.strip().strip("\"'\\").strip() for name in names]
    if star:  # charset*=encoding'language'value, percent-encoded in that encoding
        extended = []
        for name in names:
            if "'" not in name:
                extended.append(name)
                continue
            declared, _, value = name.split("'", 2) if name.count("'") >= 2 else (
                "", "", name.rsplit("'", 1)[-1])
            if declared.strip().lower() not in _PLAIN_2231:
                return [UNREADABLE]
            extended.append(re.sub("%([0-9A-Fa-f]{2})",
                                   lambda m: chr(int(m.group(1), 16)), value))
        names = extended
    return names


def _is_unsafe(name):
    unsafe = _checked.get(name)
    if unsafe is None:
        try:
            info = codecs.lookup(name)
        except (LookupError, ValueError, TypeError, UnicodeError):  # NUL in the name: either
            unsafe = False
        else:
            unsafe = getattr(info, "name", name) not in ASCII_TRANSPARENT
        if len(_checked) < 256:  # a client writes the names: bound the memo
            _checked[name] = unsafe
    return unsafe


def decodes_to_fields(query, charsets):
    """Whether Django, decoding *query* (a native str as the server gave it, or
    bytes) with one of *charsets* before it splits (falling back to latin-1
    when it cannot, as ``QueryDict`` does), would read other text holding
    ``&``, ``;`` or ``=``."""
    if not query or not charsets:
        return False
    raw = query if isinstance(query, bytes) else query.encode("latin-1")
    plain = raw.decode("latin-1")
    for charset in charsets:
        if charset is UNREADABLE:
            return True
        try:
            text = raw.decode(charset)
        except UnicodeDecodeError:
            continue  # Django reads it as latin-1: the bytes the rewrite saw
        except Exception:  # a codec that fails otherwise: refuse rather than guess
            return True
        if text != plain and ("&" in text or ";" in text or "=" in text):
            return True
    return False
