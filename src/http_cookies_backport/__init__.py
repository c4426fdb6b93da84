"""The cookie module's fixes: linear-time unquoting (CVE-2024-7592, gh-123067) and
no control characters in what a cookie writes (CVE-2026-0672, gh-143919;
CVE-2026-3644, gh-145599).

The stdlib's ``http.cookies._unquote`` (``Cookie._unquote`` on 2.7), which
``SimpleCookie.load`` and Django's ``parse_cookie`` call on every request's
``Cookie`` header, takes time quadratic in the number of backslashes of a
quoted value before the fix; :func:`unquote` is the fixed function. A
``Morsel`` before the 2026 fixes takes CR and LF in its key, value and
attributes and writes them into a ``Set-Cookie`` header or a script.
:func:`patch` applies each fix the interpreter lacks. Importing this package
changes nothing.

Module map: ``_unquote`` (CVE-2024-7592), ``_morsel`` (CVE-2026-0672) and
``_morsel_update`` (CVE-2026-3644), each a fix module (``needs_fix``,
``replacements``); ``_morsel_copies``: the setters' stock bodies with the
check inlined, which ``_morsel`` uses where the shipped body is one of them.
The patch functions, start-up switch, logging and ``python -m`` are the
shared package's (``_cpython_security._engine``, ``_startup``, ``_cli``),
driven by this package's rows in its registry.
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
