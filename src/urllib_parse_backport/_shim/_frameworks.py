"""Framework adapters: fix query-string parsers that frameworks wrote themselves.

Used by ``patch(frameworks=True)``. Each adapter is a :class:`FrameworkAdapter`,
a :class:`~urllib_parse_backport._shim._targets.Target` that is never forced:
it patches only a parser found where expected *and* seen to split
``'a=1;b=2'`` in two. The replacement keeps the framework's own parser and
its return types; it only rewrites the query first, so that the fields it
splits are the ones the separator policy (``'&'``, or
``PYTHON_URLLIB_QS_SEPARATOR``) gives: each other ``'&'``/``';'`` reaches the
parser percent-encoded, as data, and the parser's own unquote restores it.
"""

import io

from .. import _policy
from .._report import failure
from .._rewrite import LEGACY, separate_by_policy
from ._surgery import copy_function, parameters
from ._targets import Target, separating_copy

__all__ = ["FrameworkAdapter", "ADAPTERS"]


class FrameworkAdapter(Target):
    """A :class:`Target` for one framework parser: *module*, *attribute*, *probe*.

    *attribute* names a function of the module, or a method (``Class.method``,
    replaced in place only). *probe(parser)* returns how many fields the
    parser (for a method: its class) finds in ``'a=1;b=2'``;
    *wrap* builds the replacement (default: rewrite the query, then call the
    framework's own parser). *covers*: other functions of the module whose
    splitting the replacement fixes because it feeds them (for the audit's
    report). ``patch(force=True)`` does not force adapters: unknown parsers
    stay as they are.
    """

    forceable = False

    def __init__(self, module, attribute, probe, wrap=None, covers=()):
        Target.__init__(self, module, {attribute: None}, load="installed",
                        assess=self._assess, wrap=wrap or separating_copy)
        self.attribute = attribute
        self.probe = probe
        self.covers = tuple(covers)

    def _assess(self, module, verdicts):
        label = "%s.%s" % (self.module, self.attribute)
        parser = getattr(module, self.attribute.partition(".")[0], None)
        if parser is None:
            return False, "%s not found: unknown version" % (label,)
        try:
            fields = self.probe(parser)
        except Exception as exc:
            return False, failure("unrecognised parser: probe failed: %s: %s" % (
                type(exc).__name__, exc))
        if fields == 2:
            return True, "splits on ';' (CVE-2021-23336)"
        if fields == 1:
            return False, "already splits on '&' only"
        return False, failure("unrecognised parser: %r fields for 'a=1;b=2'" % (fields,))


def _separate_body_by_policy(original, backport):
    """For a body processor ``f(entity)`` that reads ``entity.fp`` whole (CherryPy):
    let a copy of it read the separated body, then give the entity its reader back."""
    params = parameters(original)
    if params is None or [name for name, _ in params] != ["entity"]:
        return None
    process = copy_function(original)

    def process_urlencoded(entity):
        reader = entity.fp
        entity.fp = io.BytesIO(separate_by_policy(reader.read()))
        try:
            return process(entity)
        finally:
            entity.fp = reader

    process_urlencoded.__name__ = original.__name__
    process_urlencoded.__doc__ = original.__doc__
    return process_urlencoded


def _separate_written_by_policy(original, backport):
    """For a streaming parser's ``write(self, data)`` (python-multipart's
    QuerystringParser): a copy of it writes each chunk separated; the rewrite
    is byte-local, so a ``;`` is caught wherever the body is cut. Under
    ``legacy`` the chunk goes through as it came: the parser's own split on
    both is the old behaviour (its handling of ``;`` inside a value is its
    own, not the stdlib's)."""
    params = parameters(original)
    if params is None or [name for name, _ in params] != ["self", "data"]:
        return None
    write = copy_function(original)

    def write_separated(self, data):
        if _policy.setting == LEGACY:
            return write(self, data)
        separated = separate_by_policy(data)
        written = write(self, separated)
        if separated is not data and written == len(separated):
            return len(data)  # all of the caller's bytes, as the original says
        return written

    write_separated.__name__ = original.__name__
    write_separated.__doc__ = original.__doc__
    return write_separated


def _streamed_fields(parser_class):
    """A probe: how many fields a QuerystringParser class finds in ``a=1;b=2``."""
    ends = []
    parser = parser_class(callbacks={"on_field_end": lambda: ends.append(1)})
    parser.write(b"a=1;b=2")
    parser.finalize()
    return len(ends)


def _fields_in(sample):
    """A probe: how many fields (pairs, or keys of a dict) a parser finds in *sample*."""
    def probe(parser):
        return len(list(parser(sample)))
    return probe


class _ProbeEntity(object):
    """Just what a CherryPy urlencoded-body processor reads and sets."""

    def __init__(self, body):
        self.fp = io.BytesIO(body)
        self.attempt_charsets = ["utf-8"]
        self.charset = None
        self.params = {}


def _body_fields(process):
    entity = _ProbeEntity(b"a=1;b=2")
    process(entity)
    return len(entity.params)


#: What ``patch(frameworks=True)`` looks at, after the stdlib targets.
ADAPTERS = [
    # WebOb 1.8.x on 3.x (request.GET; Pyramid, webapp2): its own parser splits
    # on [&;]. On 2.7 it forwards to urlparse.parse_qsl, bound at import.
    FrameworkAdapter("webob.compat", "parse_qsl_text", _fields_in("a=1;b=2")),
    # CherryPy 17/18: query strings (request.params via parse_query_string,
    # which looks up _parse_qs at call time)...
    FrameworkAdapter("cherrypy.lib.httputil", "_parse_qs", _fields_in("a=1;b=2")),
    # ...and urlencoded bodies, parsed inline; Entity.processors holds the
    # function, which the in-place code swap reaches.
    FrameworkAdapter("cherrypy._cpreqbody", "process_urlencoded", _body_fields,
                     wrap=_separate_body_by_policy),
    # Twisted Web: Request.args (query and urlencoded body), bytes in and out.
    FrameworkAdapter("twisted.web.http", "parse_qs", _fields_in(b"a=1;b=2")),
    # Bottle <= 0.12.18: request.query and request.forms/POST (urlencoded
    # bodies) both go through this module-level function; 0.12.19 fixed it.
    FrameworkAdapter("bottle", "_parse_qsl", _fields_in("a=1;b=2")),
    # Django 1.11 (EOL): QueryDict; 2.2.19+/3.0.13+/3.1.7+ split on '&' only,
    # later versions dropped the function.
    FrameworkAdapter("django.utils.http", "limited_parse_qsl", _fields_in("a=1;b=2")),
    # python-multipart (Starlette's and FastAPI's urlencoded request.form()):
    # QuerystringParser splits on [&;] in every release to 0.0.20 at least.
    # 0.0.13+ is python_multipart (its "multipart" re-exports the same class);
    # up to 0.0.12 it is the "multipart" package.
    # write() hands each chunk to _internal_write, where the scan for [&;] is.
    FrameworkAdapter("python_multipart.multipart", "QuerystringParser.write",
                     _streamed_fields, wrap=_separate_written_by_policy,
                     covers=["QuerystringParser._internal_write"]),
    FrameworkAdapter("multipart.multipart", "QuerystringParser.write",
                     _streamed_fields, wrap=_separate_written_by_policy,
                     covers=["QuerystringParser._internal_write"]),
]
