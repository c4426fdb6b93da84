"""Query-string parsing with the CVE-2021-23336 (bpo-42967) fix, for Python 2.7 and 3.6+.

``parse_qs`` and ``parse_qsl`` split fields on one separator only (``'&'`` by
default), so ``';'`` can no longer smuggle a second value past a cache.
``patch()`` makes the stdlib's own parsers do the same, process-wide;
``status()`` says what this process's parsers do. Importing this package
changes nothing.
"""

from ._api import is_patched, patch, status, unpatch
from ._parse import parse_qs, parse_qsl
from ._policy import QuerySeparatorWarning, read_environment
from ._report import PatchReport
from ._version import __version__

__all__ = [
    "parse_qs", "parse_qsl",
    "patch", "unpatch", "is_patched", "status", "PatchReport",
    "QuerySeparatorWarning", "read_environment",
    "__version__",
]
