"""Rewrite a query so that a parser splitting on ``&`` and ``;`` finds the fixed fields.

Why: a parser we cannot replace (a framework's own, an in-house one, one behind
a WSGI server) still decodes ``%26`` and ``%3B`` as data. Turning the chosen
separator into ``&`` and percent-encoding every other ``&`` and ``;`` makes any
such parser, and any parser splitting on ``&`` only, see the fields that the
fixed ``parse_qsl`` (bpo-42967) splits with that separator.
:func:`separate_by_policy` does it with the separator the package's own
parsers default to (``PYTHON_URLLIB_QS_SEPARATOR``, the opt-in warning), for
the parsers the shim wraps rather than replaces.
"""

import sys

from . import _policy
from ._compat import text_type

__all__ = ["LEGACY", "separate", "separate_by_policy"]

#: The separator value meaning "split on both, as before bpo-42967": no rewrite.
LEGACY = "legacy"


def separate(qs, separator=None):
    """*qs* with *separator* as ``'&'`` and every other ``'&'``/``';'`` percent-encoded.

    *qs* is text or bytes; the result has its type. *separator* is text or
    bytes of any length (converted to *qs*'s type as latin-1, the WSGI
    convention), None for ``'&'``, or ``'legacy'``, which returns *qs*
    unchanged. The result is *qs* itself when nothing changes, so the common
    case (``'&'``, no ``';'``) costs one scan and allocates nothing. Anything
    else than text or bytes is returned as it is, for the parser behind it to
    raise its own error.
    """
    if isinstance(qs, text_type):
        if separator is not None and not isinstance(separator, text_type):
            separator = separator.decode("latin-1")
        if separator is None or separator == u"&":  # the common case: one replace
            return qs.replace(u";", u"%3B")
        if separator == u"legacy":
            return qs
        amp, semicolon = (u"&", u"%26"), (u";", u"%3B")
    elif isinstance(qs, bytes):
        if isinstance(separator, text_type):
            if separator == u"legacy":
                return qs
            separator = separator.encode("latin-1")
        if separator is None or separator == b"&":
            return qs.replace(b";", b"%3B")
        if separator == b"legacy":
            return qs
        amp, semicolon = (b"&", b"%26"), (b";", b"%3B")
    else:  # not a string: the parser behind raises its own error
        return qs
    if separator not in qs and amp[0] not in qs and semicolon[0] not in qs:
        return qs
    return amp[0].join(piece.replace(*amp).replace(*semicolon)
                       for piece in qs.split(separator))


def separate_by_policy(qs):
    """:func:`separate` with the separator the backport's ``parse_qsl`` uses by
    default: ``'&'``, or what ``PYTHON_URLLIB_QS_SEPARATOR`` (or Red Hat's
    configuration file) chose; warns first when ``URLLIB_PARSE_BACKPORT_WARN``
    asks. Raises the policy's ``ValueError`` for an unusable setting."""
    separator = "&"
    if _policy.apply_default is _policy.warn_on_semicolon:
        qs, separator = _policy.warn_on_semicolon(qs, stacklevel=_caller_level())
    elif _policy.apply_default is not None:
        qs, separator = _policy.apply_default(qs)
    return separate(qs, separator)


def _caller_level():
    """The ``stacklevel`` that makes a warning raised in ``separate_by_policy``'s
    callee name the code that called the wrapped parser: past this package's
    frames and the wrappers it compiled (named ``<urllib_parse_backport ...>``)."""
    package = __name__.rpartition(".")[0] + "."
    level, frame = 3, sys._getframe(2)  # the frame that called separate_by_policy
    while frame is not None and (
            frame.f_globals.get("__name__", "").startswith(package)
            or frame.f_code.co_filename.startswith("<urllib_parse_backport")):
        level, frame = level + 1, frame.f_back
    return level
