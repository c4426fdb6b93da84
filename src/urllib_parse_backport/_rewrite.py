"""Rewrite a query so that a parser splitting on ``&`` and ``;`` finds the fixed fields.

Why: a parser we cannot replace (a framework's own, an in-house one, one behind
a WSGI server) still decodes ``%26`` and ``%3B`` as data. Turning the chosen
separator into ``&`` and percent-encoding every other ``&`` and ``;`` makes any
such parser, and any parser splitting on ``&`` only, see the fields that the
fixed ``parse_qsl`` (bpo-42967) splits with that separator.
"""

from ._compat import text_type

__all__ = ["LEGACY", "separate"]

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
