"""Cookie-value unquoting in linear time (CVE-2024-7592, gh-123067).

The stdlib's ``http.cookies._unquote`` (``Cookie._unquote`` on 2.7), which
``SimpleCookie.load`` and Django's ``parse_cookie`` call on every request's
``Cookie`` header, takes time quadratic in the number of backslashes of a
quoted value before the fix. :func:`unquote` is the fixed function;
:func:`patch` puts it in the stdlib's place where the stock one is the
quadratic loop. Importing this package changes nothing.

Module map: ``_unquote`` (the fix: ``needs_fix``, ``replacements``). The
patch functions, start-up switch, logging and ``python -m`` are the shared
package's (``_cpython_security._engine``, ``_startup``, ``_cli``), driven by
this package's rows in its registry.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

from ._unquote import unquote

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

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
