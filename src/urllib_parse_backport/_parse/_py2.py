"""``parse_qs``/``parse_qsl`` for Python 2.7: 2.7.18's ``urlparse`` with the fix.

Results, types and errors are those of 2.7.18's ``urlparse`` (``str`` in,
``str`` out; ``unicode`` in, ``unicode`` out, escapes read as latin-1), except
that only *separator* splits fields, as in bpo-42967's 3.x fix.
"""

from .._compat import string_types, text_type
from .. import _policy
from ._fields import split_fields, split_fields_fast
from .._policy import DEFAULT_SEPARATOR
from ._unquote import text_unquoter, unquote_bytes, unquote_text

__all__ = ["parse_qs", "parse_qsl"]


def _decode_native(data):
    if "+" in data:
        data = data.replace("+", " ")
    return unquote_bytes(data)


def _decode_unicode(text):
    if u"+" in text:
        text = text.replace(u"+", u" ")
    # 2.7's urlparse.unquote reads the escapes of unicode input as latin-1.
    return unquote_text(text, "latin-1", "strict")


# 2.7's urlparse.unquote reads the escapes of unicode input as latin-1.
_LATIN1_UNQUOTER = text_unquoter("latin-1", "strict")


def parse_qsl(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None,
              separator=DEFAULT_SEPARATOR):
    """Parse a query string into a list of ``(name, value)`` pairs.

    Same results as 2.7.18's ``urlparse.parse_qsl``, but only *separator*
    (default ``'&'``) splits fields: ``';'`` is data (CVE-2021-23336).
    """
    if separator is DEFAULT_SEPARATOR and _policy.apply_default is not None:
        # PYTHON_URLLIB_QS_SEPARATOR or the opt-in warning (see _policy).
        qs, separator = _policy.apply_default(qs)
    if not separator or not isinstance(separator, string_types):
        raise ValueError("Separator must be of type string or bytes.")
    if isinstance(qs, text_type):
        if not isinstance(separator, text_type):
            separator = separator.decode("ascii")
        decode = _decode_unicode
    else:
        if isinstance(separator, text_type):
            separator = separator.encode("ascii")
        decode = _decode_native
    if not strict_parsing and "+" not in separator and " " not in separator:
        # Same results as the loop below, in fewer steps (see split_fields_fast).
        # Not for unicode with keep_blank_values: a field without '=' gets the
        # native '' there, which only the loop reproduces.
        if isinstance(qs, str):
            return split_fields_fast(qs, separator, "=", keep_blank_values, max_num_fields,
                                     "+", " ", "%", unquote_bytes if "%" in qs else None)
        if isinstance(qs, text_type) and not keep_blank_values:
            return split_fields_fast(qs, separator, u"=", keep_blank_values, max_num_fields,
                                     u"+", u" ", u"%",
                                     _LATIN1_UNQUOTER if u"%" in qs else None)
    # Only strings take the fast path: anything else must fail (or not) where
    # 2.7.18 does, at qs.count/qs.split (None or 0 -> AttributeError).
    if isinstance(qs, string_types) and "%" not in qs and "+" not in qs:
        decode = None
    # 2.7.18 gives a field without '=' the native '' as its value, even for
    # unicode input; keep that quirk so results stay identical.
    return split_fields(qs, separator, "=", keep_blank_values, strict_parsing,
                        max_num_fields, decode, "")


def parse_qs(qs, keep_blank_values=0, strict_parsing=0, max_num_fields=None,
             separator=DEFAULT_SEPARATOR):
    """Parse a query string into a dict mapping each name to its list of values.

    Same results as 2.7.18's ``urlparse.parse_qs``, splitting on *separator* only.
    """
    if separator is DEFAULT_SEPARATOR and _policy.apply_default is not None:
        # Resolved here too, so a QuerySeparatorWarning points at our caller.
        qs, separator = _policy.apply_default(qs)
    parsed = {}
    for name, value in parse_qsl(qs, keep_blank_values, strict_parsing,
                                 max_num_fields, separator):
        if name in parsed:
            parsed[name].append(value)
        else:
            parsed[name] = [value]
    return parsed
