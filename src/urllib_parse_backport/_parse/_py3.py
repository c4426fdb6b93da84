"""``parse_qs``/``parse_qsl`` for Python 3: CPython 3.13.0's behaviour everywhere.

Every interpreter from 3.6 gets the same results, result types and errors as
3.13.0, including the changes that came after bpo-42967: the strict separator
check and raw-bytes parsing (gh-74668, gh-116764), and an empty query giving
``[]`` even when strict (bpo-45874).
"""

from .. import _policy
from ._fields import split_fields, split_fields_fast
from .._policy import DEFAULT_SEPARATOR
from ._unquote import text_unquoter, unquote_bytes, unquote_text

__all__ = ["parse_qs", "parse_qsl"]


def parse_qsl(qs, keep_blank_values=False, strict_parsing=False,
              encoding="utf-8", errors="replace", max_num_fields=None, separator=DEFAULT_SEPARATOR):
    """Parse a query string into a list of ``(name, value)`` pairs.

    Same signature and results as ``urllib.parse.parse_qsl`` of CPython 3.13:
    only *separator* (default ``'&'``) splits fields (CVE-2021-23336).
    """
    if separator is DEFAULT_SEPARATOR and _policy.apply_default is not None:
        # PYTHON_URLLIB_QS_SEPARATOR or the opt-in warning (see _policy).
        qs, separator = _policy.apply_default(qs)
    if not separator or not isinstance(separator, (str, bytes)):
        raise ValueError("Separator must be of type string or bytes.")
    if isinstance(qs, str):
        if not isinstance(separator, str):
            separator = str(separator, "ascii")
        if not qs:
            return []
        if not strict_parsing and "+" not in separator and " " not in separator:
            return split_fields_fast(qs, separator, "=", keep_blank_values, max_num_fields,
                                     "+", " ", "%",
                                     text_unquoter(encoding, errors) if "%" in qs else None)
        if "%" in qs or "+" in qs:
            def decode(text):
                if "+" in text:
                    text = text.replace("+", " ")
                return unquote_text(text, encoding, errors)
        else:
            decode = None
        return split_fields(qs, separator, "=", keep_blank_values, strict_parsing,
                            max_num_fields, decode, "")

    # gh-74668: any bytes-like object is parsed as raw bytes, and encoding
    # and errors do not apply. memoryview() rejects integers and iterables.
    if not qs:
        return []
    qs = bytes(memoryview(qs))
    if isinstance(separator, str):
        separator = bytes(separator, "ascii")
    if not qs:
        return []
    if not strict_parsing and b"+" not in separator and b" " not in separator:
        return split_fields_fast(qs, separator, b"=", keep_blank_values, max_num_fields,
                                 b"+", b" ", b"%", unquote_bytes if b"%" in qs else None)
    if b"%" in qs or b"+" in qs:
        def decode(data):
            if b"+" in data:
                data = data.replace(b"+", b" ")
            return unquote_bytes(data)
    else:
        decode = None
    return split_fields(qs, separator, b"=", keep_blank_values, strict_parsing,
                        max_num_fields, decode, b"")


def parse_qs(qs, keep_blank_values=False, strict_parsing=False,
             encoding="utf-8", errors="replace", max_num_fields=None, separator=DEFAULT_SEPARATOR):
    """Parse a query string into a dict mapping each name to its list of values.

    Same signature and results as ``urllib.parse.parse_qs`` of CPython 3.13.
    """
    if separator is DEFAULT_SEPARATOR and _policy.apply_default is not None:
        # Resolved here too, so a QuerySeparatorWarning points at our caller.
        qs, separator = _policy.apply_default(qs)
    parsed = {}
    for name, value in parse_qsl(qs, keep_blank_values, strict_parsing,
                                 encoding=encoding, errors=errors,
                                 max_num_fields=max_num_fields, separator=separator):
        if name in parsed:
            parsed[name].append(value)
        else:
            parsed[name] = [value]
    return parsed
