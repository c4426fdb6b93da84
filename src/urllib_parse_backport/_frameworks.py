"""Framework adapters: fix query-string parsers that frameworks wrote themselves (issue 7).

Used by ``patch(frameworks=True)``. Each adapter is a :class:`FrameworkAdapter`,
a shim :class:`~urllib_parse_backport._shim.Target` that is never forced:
it patches only a parser found where expected *and* seen to split
``'a=1;b=2'`` in two. The replacement keeps the framework's own parser and
its return types; it only rewrites the query first, so that the fields it
splits are the ones the separator policy (``'&'``, or
``PYTHON_URLLIB_QS_SEPARATOR``) gives: each other ``'&'``/``';'`` reaches the
parser percent-encoded, as data, and the parser's own unquote restores it.
"""

from ._compat import text_type
from ._shim import Target, _forwarding_copy
from . import _policy

__all__ = ["FrameworkAdapter", "ADAPTERS"]

#: Splits into two fields on a parser that treats ``';'`` as a separator.
_PROBE = "a=1;b=2"


class FrameworkAdapter(Target):
    """A :class:`Target` for one framework parser: *module*, *attribute*, *probe*.

    *probe(parser)* returns how many fields the parser finds in ``'a=1;b=2'``.
    ``patch(force=True)`` does not force adapters: unknown parsers stay as they are.
    """

    forceable = False

    def __init__(self, module, attribute, probe):
        Target.__init__(self, module, {attribute: None}, load="installed",
                        assess=self._assess, wrap=_separate_by_policy)
        self.attribute = attribute
        self.probe = probe

    def _assess(self, module, verdicts):
        label = "%s.%s" % (self.module, self.attribute)
        parser = getattr(module, self.attribute, None)
        if parser is None:
            return False, "%s not found: unknown version" % (label,)
        try:
            fields = self.probe(parser)
        except Exception as exc:
            return False, "unrecognised parser: probe failed: %s: %s" % (
                type(exc).__name__, exc)
        if fields == 2:
            return True, "splits on ';' (CVE-2021-23336)"
        if fields == 1:
            return False, "already splits on '&' only"
        return False, "unrecognised parser: %r fields for %r" % (fields, _PROBE)


def _separate(qs):
    """*qs* with the policy's separator as ``'&'`` and every other ``'&'``/``';'``
    percent-encoded: for parsers that split on both (bpo-42967's default, or
    ``PYTHON_URLLIB_QS_SEPARATOR``'s choice)."""
    separator = "&"
    if _policy.apply_default is not None:
        qs, separator = _policy.apply_default(qs)  # may raise ValueError or warn
    if isinstance(qs, text_type):
        separator, amp, semicolon = text_type(separator), (u"&", u"%26"), (u";", u"%3B")
    elif isinstance(qs, bytes):
        separator = separator.encode("latin-1") if isinstance(separator, text_type) \
            else separator
        amp, semicolon = (b"&", b"%26"), (b";", b"%3B")
    else:  # not a string: the framework's parser raises its own error
        return qs
    pieces = qs.split(separator)
    return amp[0].join(piece.replace(*amp).replace(*semicolon) for piece in pieces)


def _separate_by_policy(original, backport):
    """The replacement for *original*: same signature; calls a copy of it on
    ``_separate(qs)``. None for a signature it does not know."""
    return _forwarding_copy(original, _separate, "<urllib_parse_backport adapter>")


def _count_fields(parser):
    return len(list(parser(_PROBE)))


#: What ``patch(frameworks=True)`` looks at, after the stdlib targets.
ADAPTERS = [
    # WebOb 1.8.x on 3.x (request.GET; Pyramid, webapp2): its own parser splits
    # on [&;]. On 2.7 it forwards to urlparse.parse_qsl, bound at import.
    FrameworkAdapter("webob.compat", "parse_qsl_text", _count_fields),
]
