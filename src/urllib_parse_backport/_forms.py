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
* **other spellings**: python-multipart (``parse_form``, ``FormParser``, to
  0.0.20), Werkzeug (to 2.3, so Flask) and Quart (0.19-0.23) read
  ``application/x-url-encoded`` as urlencoded too; so does a value naming it;
* **media ranges**: Django REST framework picks its parser with
  ``media_type_matches(parser.media_type, request.content_type)``, where a
  ``*`` in the request's type or subtype matches anything (``*/*``,
  ``application/*``), so ``FormParser`` reads such a body in every view
  that lists it before ``JSONParser``; so a type or subtype holding ``*``
  (of the value, or of a comma element) is a form;
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
* **charsets** are ``_charsets``'s: Django decodes the query and the body
  with the request's ``charset`` before it splits them.
"""

import operator
import re
import sys

__all__ = ["FORM", "MULTIPART", "OTHER", "body_kind", "label_blind_parsers",
           "label_blind_limit"]

#: What :func:`body_kind` says of a body's labels.
FORM, MULTIPART, OTHER = "form", "multipart", "other"

_URLENCODED = "application/x-www-form-urlencoded"
_FORM_TYPES = ("x-www-form-urlencoded", "x-url-encoded")
_COMMA_OR_QUOTE = re.compile(r'[,"]')


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
    if not value.strip() or "=?" in value or "url" in value and (
            _FORM_TYPES[0] in value or _FORM_TYPES[1] in value):
        return FORM
    if "*" in value and _names_a_media_range(value):
        return FORM
    if value[:10] != "multipart/":  # as Bottle tells it: a leading space is not multipart
        return OTHER
    if "," in value:
        for element in _elements(value):
            if element.strip()[:10] != "multipart/":
                return OTHER
    return MULTIPART


def _names_a_media_range(value):
    """Whether the media type of *value* (the text before its first ``;``, as
    ``cgi.parse_header`` and DRF read it), or of one of its comma elements (as
    CherryPy reads it), holds a ``*``: DRF's ``_MediaType.match`` lets a
    ``*`` type or subtype of the request match its ``FormParser``. A
    ``multipart/`` range matches DRF's ``MultiPartParser`` instead, which
    splits on boundaries, not on ``;``: it stays multipart."""
    types = [value.split(";", 1)[0]]
    if "," in value:
        types.extend(element.split(";", 1)[0] for element in _elements(value))
    return any("*" in media and media.strip()[:10] != "multipart/" for media in types)


def _elements(value):
    """*value* split as CherryPy splits a header (``cherrypy.lib.httputil``'s
    ``RE_HEADER_SPLIT``, ``,(?=(?:[^"]*"[^"]*")*[^"]*$)``): at each comma
    followed by an even number of ``"``. Its regex rescans the rest of the
    value at every comma; this counts the quotes once, in one pass."""
    quotes_after = value.count('"')
    elements, start = [], 0
    for mark in _COMMA_OR_QUOTE.finditer(value):
        if mark.group() == '"':
            quotes_after -= 1
        elif not quotes_after % 2:
            elements.append(value[start:mark.start()])
            start = mark.end()
    elements.append(value[start:])
    return elements


#: The parsers that read every body but a multipart one as a form, whatever
#: its label: a module named ``bottle`` (or ``<anything>.bottle``, a vendored
#: copy) with ``_parse_qsl``, counted when that function splits on ``;`` (a
#: fixed one, or one the Bottle adapter of ``patch(frameworks=True)`` swapped,
#: does not, and then counts for nothing).
_MODULE, _FUNCTION = "bottle", "_parse_qsl"
_seen = [-1, ()]  # [len(sys.modules) when last scanned, the names of the candidates]
_probed = {}  # id(function) -> (function, its code, splits on ';')


def label_blind_parsers():
    """The label-blind parsers loaded in this process that split on ``;``, as
    ``module.function`` names (an empty tuple in the common case).

    On each call: ``bottle`` is looked up (a module imported after
    ``protect()`` was made counts from its first request); the loaded
    modules are scanned again for vendored copies only when their number
    changed; each function is probed again only when it or its code changed
    (the adapter swaps the code in place)."""
    modules = sys.modules
    if _seen[0] != len(modules):
        _seen[1] = tuple(name for name in list(modules) if name.endswith("." + _MODULE))
        _seen[0] = len(modules)
    found = ()
    for name in (_MODULE,) + _seen[1]:
        module = modules.get(name)
        function = getattr(module, "__dict__", {}).get(_FUNCTION)
        if function is None:
            continue
        code = getattr(function, "__code__", None)
        known = _probed.get(id(function))
        if known is None or known[0] is not function or known[1] is not code:
            known = (function, code, _splits_on_semicolons(function))
            if len(_probed) < 64:
                _probed[id(function)] = known
        if known[2]:
            found += ("%s.%s" % (name, _FUNCTION),)
    return found


#: Bottle's own bound on the body it reads as a form, ``BaseRequest.MEMFILE_MAX``,
#: where a module does not say otherwise: 100 KiB, Bottle's default.
_MEMFILE_MAX = 102400


def label_blind_limit():
    """The largest body some loaded label-blind parser still reads as a form
    (and splits on ``;``): the greatest of their ``MEMFILE_MAX``
    (``BaseRequest``'s and ``LocalRequest``'s; Bottle refuses a larger body
    itself, with 413), which applications raise to take large bodies; None
    when one is not a number (no bound known). 0 when none is loaded."""
    most = 0
    for name in label_blind_parsers():
        module = sys.modules.get(name[:-len(_FUNCTION) - 1])
        # bottle.request is a LocalRequest, whose class an application may
        # change too; a module that names neither reads Bottle's default.
        limits = [getattr(getattr(module, owner, None), "MEMFILE_MAX", None)
                  for owner in ("BaseRequest", "LocalRequest")]
        for limit in [limit for limit in limits if limit is not None] or [_MEMFILE_MAX]:
            try:
                most = max(most, operator.index(limit))
            except TypeError:
                return None
    return most


def _splits_on_semicolons(parse):
    try:
        return len(list(parse("a=1;b=2"))) > 1
    except Exception:  # not the parser we know: count it, do not guess it safe
        return True
