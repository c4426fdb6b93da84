"""Cookie-value unquoting in linear time (CVE-2024-7592, gh-123067).

The stdlib's ``http.cookies._unquote`` (``Cookie._unquote`` on 2.7), which
``SimpleCookie.load`` and Django's ``parse_cookie`` call on every request's
``Cookie`` header, takes time quadratic in the number of backslashes of a
quoted value before the fix. :func:`unquote` is the fixed function;
:func:`patch` puts it in the stdlib's place where the stock one is the
quadratic loop. Importing this package changes nothing.

Module map: ``_unquote`` (the fix) -> ``_state`` -> ``_api`` (the public
functions). The ``.pth`` switch and ``python -m`` are the shared package's
(``_cpython_security._startup.run`` and ``_cli``), in the registry row's words.
"""

from _cpython_security._report import PatchReport

from ._api import is_patched, is_vulnerable, patch, status, unpatch
from ._unquote import unquote
from ._version import __version__

__all__ = [
    "unquote",
    "patch",
    "unpatch",
    "is_patched",
    "is_vulnerable",
    "status",
    "PatchReport",
    "__version__",
]
