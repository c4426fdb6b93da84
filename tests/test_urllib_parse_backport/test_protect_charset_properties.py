"""Property: a form ``protect()`` lets through decodes, in every charset a parser
reads off its Content-Type, to no separator its bytes do not hold.

Generated Content-Types spell ``charset`` parameters out of codec-name pieces
and the punctuation parsers treat differently (quotes, backslashes, ``;``,
``,``, RFC 2231 stars). Whatever ``protect()`` does not refuse is read as
the parsers read it (``cgi.parse_header`` where the interpreter has it, and
``email``'s ``get_param``, Django's two) and resolved by the interpreter's
own ``codecs.lookup``; the rewritten body, decoded strictly with each codec
found, must hold no ``&``, ``;``, ``=`` or ``%`` more than its bytes do.
"""

import codecs
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from protect_requests import URLENCODED, wsgi
from budget import examples

SETTINGS = settings(max_examples=examples(300), deadline=None)
#: A body whose separators hide from a byte rewrite in some codecs (utf-7's
#: ``+ADs-`` is ';', UTF-16 reads every byte pair anew).
BODY = b"q=common_term&utm=x+ADs-q=malicious_term;u=%3B"

PIECES = ["utf", "UTF", "-", "_", "7", "8", "16", "32", "le", "cp", "037", "500", "ascii",
          "latin", "1", "koi8", "r", "hz", "idna", "punycode", "unicode", "escape"]
PUNCTUATION = [";", ",", " ", '"', "\\", "'", "*", "=", ".", ":", "\t"]
CODECS = ["utf-7", "utf-16", "UTF-32", "cp037", "utf-8", "latin-1", "hz", "idna", "koi8-r"]
QUOTES = ["", "", '"', "'"]
#: A codec name cut by punctuation (the codec look-up reads any run of it as
#: '_'), in quotes or not, or pieces in any order.
split_names = st.tuples(st.sampled_from(QUOTES), st.sampled_from(CODECS), st.integers(1, 4),
                        st.lists(st.sampled_from(PUNCTUATION), min_size=1, max_size=3),
                        st.sampled_from(QUOTES)).map(
    lambda t: t[0] + t[1][:t[2]] + "".join(t[3]) + t[1][t[2]:] + t[4])
names = st.one_of(split_names, st.sampled_from(CODECS),
                  st.lists(st.sampled_from(PIECES + PUNCTUATION), min_size=1,
                           max_size=8).map("".join))
parameters = st.tuples(st.sampled_from(["charset", "CHARSET", "charset*", "charset*0",
                                        "boundary", "x"]),
                       st.sampled_from(["=", " = ", "="]), names).map("".join)
content_types = st.lists(parameters, max_size=4).map(
    lambda params: URLENCODED + "".join("; " + p for p in params))


def readings(content_type):
    """The charset names the parsers read off *content_type*."""
    found = []
    try:
        import cgi  # gone in 3.13
    except ImportError:
        cgi = None
    if cgi is not None:
        found.append(cgi.parse_header(content_type)[1].get("charset"))
    if sys.version_info[0] > 2:
        from email.message import Message
        message = Message()
        message["Content-Type"] = content_type
        value = message.get_param("charset")
        if isinstance(value, tuple):  # RFC 2231: (charset, language, value)
            from email.utils import collapse_rfc2231_value
            value = collapse_rfc2231_value(value)
        found.append(value)
    return [name for name in found if isinstance(name, str)]


def separators_added(data, name):
    try:
        codec = codecs.lookup(name)
    except (LookupError, ValueError, TypeError, UnicodeError):
        return None  # Django ignores it and keeps UTF-8
    try:
        text = codec.decode(data)[0]
    except Exception:
        return None  # Django falls back to latin-1: the bytes the rewrite saw
    if not isinstance(text, type(u"")):
        return None
    return [char for char in u"&;=%" if text.count(char) > data.count(char.encode("ascii"))]


@SETTINGS
@given(content_types)
def test_a_form_let_through_spells_no_separator_in_any_charset_read(content_type):
    status, body, _ = wsgi(BODY, content_type)
    if status is not None:
        return  # refused: nothing reached a parser
    for name in readings(content_type):
        assert not separators_added(body, name), (content_type, name)
