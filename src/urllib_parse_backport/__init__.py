"""Query-string parsing with the CVE-2021-23336 (bpo-42967) fix, for Python 2.7 and 3.6+.

``parse_qs`` and ``parse_qsl`` split fields on one separator only (``'&'`` by
default), so ``';'`` can no longer smuggle a second value past a cache.
``patch()`` makes the stdlib's own parsers do the same, process-wide;
importing this package changes nothing.
"""

from ._compat import PY2
from ._policy import QuerySeparatorWarning, read_environment
from ._shim import PatchReport, is_patched, patch, unpatch
from ._version import __version__

if PY2:  # pragma: no cover - exercised by the py27 environment
    from ._parse2 import parse_qs, parse_qsl
else:
    from ._parse3 import parse_qs, parse_qsl

__all__ = [
    "parse_qs", "parse_qsl",
    "patch", "unpatch", "is_patched", "PatchReport",
    "QuerySeparatorWarning", "read_environment",
    "__version__",
]

del PY2
