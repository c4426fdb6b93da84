"""Which request bodies, and which queries, a parser behind ``protect()`` reads as a form.

Why a module of its own: the rule is read off the parsers themselves, not off
the shape of the bytes, and both middlewares apply it. What each parser does:

* **the label**: Django, Starlette (python-multipart), Twisted and WebOb
  parse a body as urlencoded only under ``application/x-www-form-urlencoded``
  (Django and Twisted case-sensitively after ``cgi.parse_header``; Starlette
  reads the first of several headers; Django's ASGI handler joins them);
  CherryPy splits the header on commas (outside quotes), sorts the elements
  and takes the greatest, after decoding RFC 2047 encoded-words
  (``=?utf-8?b?...?=``) in it; so a body is a form when any value or
  element names that type, in any case, or holds an encoded-word;
* **no label**: ``cgi.FieldStorage`` parses an unlabelled POST as a form,
  WebOb 1.8 through it, CherryPy an unlabelled body of any method (its
  default ``application/x-www-form-urlencoded``); so an unlabelled (or blank)
  body is a form;
* **multipart**: every parser tells it by ``multipart/`` at the start of the
  value (Bottle without stripping it), so a body is multipart only when each
  value, and each comma-separated element CherryPy could pick, starts so;
* **label-blind parsers**: Bottle up to 0.12.18 parses every body that is
  not multipart as a form and splits it on ``;`` (CVE-2020-28473). Only
  while such a parser is loaded (:func:`label_blind_parsers`) is a body
  under another label (``text/plain``, ``application/json``) a form;
  otherwise it is nobody's form and passes byte for byte;
* **charsets**: Django decodes the query *and* the body with the request's
  ``charset`` parameter (the last one, when it names a codec Python knows)
  before it splits them, so a codec that can spell ``&``, ``;``, ``=`` or
  ``%`` without their ASCII bytes (``utf-7``: ``+ADs-`` is ``;``; UTF-16/32,
  EBCDIC, ``unicode_escape``...) would hand it separators no rewrite of the
  bytes can see. Only the codecs in :data:`ASCII_TRANSPARENT` are safe.
  Python's codec lookup turns any run of punctuation into ``_``
  (``utf,7`` and ``utf;7`` are ``utf_7``), ``cgi.parse_header`` keeps a
  quoted ``;`` and any ``,`` in a value, ``email`` (Django 4+) joins RFC 2231
  continuations (``charset*0=utf-; charset*1=7``), and Django's ASGI handler
  joins repeated headers with ``,``: every reading counts.
"""

import codecs
import re
import sys

__all__ = ["FORM", "MULTIPART", "OTHER", "body_kind", "unsafe_charset",
           "label_blind_parsers", "ASCII_TRANSPARENT"]

#: What :func:`body_kind` says of a body's labels.
FORM, MULTIPART, OTHER = "form", "multipart", "other"

_URLENCODED = "application/x-www-form-urlencoded"
_FORM_TYPE = "x-www-form-urlencoded"
# CherryPy's own split (cherrypy.lib.httputil.RE_HEADER_SPLIT): commas outside quotes.
_ELEMENTS = re.compile(r',(?=(?:[^"]*"[^"]*")*[^"]*$)')


def body_kind(content_types):
    """:data:`FORM`, :data:`MULTIPART` or :data:`OTHER` for a body sent with the
    Content-Type values *content_types* (native strs: none, one, or several
    when the client repeats the header); see the module's docstring."""
    if len(content_types) == 1:
        value = content_types[0]
        if value == _URLENCODED:  # the common case
            return FORM
    elif not content_types:
        return FORM  # unlabelled: cgi, WebOb and CherryPy read it as a form
    kinds = set(_value_kind(value.lower()) for value in content_types)
    if FORM in kinds:
        return FORM
    return MULTIPART if kinds == set([MULTIPART]) else OTHER


def _value_kind(value):
    # "=?": an RFC 2047 encoded-word, which CherryPy decodes in every header
    # (decode_TEXT_maybe) before it reads the label: whatever it spells, a form.
    if _FORM_TYPE in value or not value.strip() or "=?" in value:
        return FORM
    if value[:10] != "multipart/":  # as Bottle tells it: a leading space is not multipart
        return OTHER
    if "," in value:
        for element in _ELEMENTS.split(value):
            if element.strip()[:10] != "multipart/":
                return OTHER
    return MULTIPART


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

_CHARSET = re.compile(r"charset(\*[0-9]*\*?)?\s*=", re.IGNORECASE)
_BOUNDARY = re.compile(r"[;,]")
_MOST_SPELLINGS = 16  # the prefixes of one value tried: no codec name holds more ';' or ','
_checked = {}  # name -> unsafe (bool): the answer for each name seen


def unsafe_charset(content_types):
    """The first ``charset`` named in *content_types* (native strs) that is a
    codec Python knows and not an :data:`ASCII_TRANSPARENT` one, else None.

    Every ``charset=`` anywhere in the values counts, quoted or not, read up
    to each ``;`` or ``,`` after it and to the end (so ``utf,7`` and
    ``"utf;7"`` are read as a parser that keeps them reads them); the RFC 2231
    forms ``charset*=utf-8''utf%2D7`` are read percent-decoded, and
    continuations (``charset*0=``) are refused whatever they spell: no
    client that means well splits a charset name. Repeated headers are read
    one by one and joined with ``,``. A name Python does not know is safe:
    Django ignores it and keeps UTF-8."""
    values = list(content_types)
    if len(values) > 1:
        values.append(",".join(values))  # Django's ASGI handler joins them
    for value in values:
        if "charset" not in value.lower():
            continue
        for match in _CHARSET.finditer(value):
            if match.group(1) and match.group(1).strip("*"):
                return "charset" + match.group(1)  # an RFC 2231 continuation
            for name in _spellings(value[match.end():]):
                unsafe = _checked.get(name)
                if unsafe is None:
                    unsafe = _is_unsafe(name)
                    if len(_checked) < 256:  # a client writes the names: bound the memo
                        _checked[name] = unsafe
                if unsafe:
                    return name
    return None


def _spellings(rest):
    """The names a parser may read in a charset value that starts *rest*: up to
    each ``;`` or ``,`` and to the end, unquoted, and for RFC 2231's
    ``encoding'language'value`` the value, percent-decoded."""
    ends = [m.start() for m in _BOUNDARY.finditer(rest)][:_MOST_SPELLINGS] + [len(rest)]
    names = []
    for end in ends:
        name = rest[:end].strip().strip("\"'\\").strip()
        names.append(name)
        if "'" in name or "%" in name:
            value = name.rsplit("'", 1)[-1]
            names.append(re.sub("%([0-9A-Fa-f]{2})",
                                lambda m: chr(int(m.group(1), 16)), value))
    return names


def _is_unsafe(name):
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError, UnicodeError):  # NUL in the name: either
        return False
    return getattr(info, "name", name) not in ASCII_TRANSPARENT


#: The parsers that read every body but a multipart one as a form, whatever
#: its label: ``(module, function)``, and the probe telling whether the
#: function splits on ``;`` (a fixed one, or one the Bottle adapter of
#: ``patch(frameworks=True)`` replaced, does not, and then counts for nothing).
_LABEL_BLIND = [("bottle", "_parse_qsl")]
_probed = {}  # id(function) -> (function, splits on ';')


def label_blind_parsers():
    """The label-blind parsers loaded in this process that split on ``;``, as
    ``module.function`` names (an empty tuple in the common case).

    Looked up on each call (a dictionary lookup per parser), so a module
    imported after ``protect()`` was made counts from its first request; each
    function is probed once."""
    found = ()
    for module_name, function_name in _LABEL_BLIND:
        module = sys.modules.get(module_name)
        if module is None:
            continue
        function = getattr(module, function_name, None)
        if function is None:
            continue
        known = _probed.get(id(function))
        if known is None or known[0] is not function:
            known = (function, _splits_on_semicolons(function))
            _probed[id(function)] = known
        if known[1]:
            found += ("%s.%s" % (module_name, function_name),)
    return found


def _splits_on_semicolons(parse):
    try:
        return len(list(parse("a=1;b=2"))) > 1
    except Exception:  # not the parser we know: count it, do not guess it safe
        return True
