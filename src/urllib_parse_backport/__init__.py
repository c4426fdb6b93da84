"""Query-string parsing with the CVE-2021-23336 (bpo-42967) fix, for Python 2.7 and 3.6+.

``parse_qs`` and ``parse_qsl`` split fields on one separator only (``'&'`` by
default), so ``';'`` can no longer smuggle a second value past a cache.
``patch()`` makes the stdlib's own parsers do the same, process-wide;
``status()`` says what this process's parsers do. Importing this package
changes nothing.

Module map, one room per layer, each importing only the rooms below it and
the shared modules at the top::

    _parse/      the fix: parse_qs/parse_qsl (2.7 and 3.x families); no state
    wsgi/        protect(app): the WSGI middleware (public); patches nothing
    asgi/        protect(app): the ASGI middleware (public, Python 3); patches nothing
    _shim/       patch/unpatch/is_patched: targets, adapters, surgery, import
                 hook, state, and the start-up switch the .pth file runs
    _selfcheck/  status() and ``python -m urllib_parse_backport``
    _audit/      ``python -m urllib_parse_backport --audit``: source reading only
    _policy, _rewrite, _protect, _report, _log, _compat, _version
                 shared by the rooms: the separator policy, the rewrite that
                 makes any parser split like the fix, what both middlewares
                 decide (which bodies are forms), the report, logging,
                 2/3 compatibility
    _forms, _charsets, _limits, _coded
                 below _protect: which bodies a parser reads as a form,
                 which charsets are refused, the bounds on what a request
                 makes protect() read, a compressed form checked or decoded
"""

from . import _parse
from ._compat import LAZY_ATTRIBUTES
from ._parse import parse_qs, parse_qsl
from ._policy import QuerySeparatorWarning, read_environment
from ._report import PatchReport
from ._selfcheck import status
from ._shim._api import is_patched, patch, unpatch
from ._version import __version__

__all__ = [
    "parse_qs", "parse_qsl", "urlsplit", "urlparse",
    "patch", "unpatch", "is_patched", "status", "PatchReport",
    "QuerySeparatorWarning", "read_environment",
    "__version__",
]

if LAZY_ATTRIBUTES:
    def __getattr__(name):
        """``urlsplit``/``urlparse``, built on first access (see ``_parse.fixed``)."""
        if name in _parse.SPLIT_NAMES:
            value = globals()[name] = _parse.fixed(name)
            return value
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
else:  # pragma: no cover - 2.7 and 3.6
    from ._parse import urlparse, urlsplit  # noqa: F401
