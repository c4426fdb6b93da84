"""Backported header-injection guards of ``wsgiref`` (same module names on 2.7).

:func:`patch` binds the guards this interpreter lacks (read from the stock
module's behaviour, never its version); importing this package changes
nothing. Each guard refuses, with upstream's exception and message, a
control character where the stock code writes it into the response as
given; everything it lets through goes to the stock method unchanged, so an
honest response is the same bytes.

- CVE-2026-0865 (gh-143916): ``wsgiref.headers.Headers`` refuses C0
  control characters and DEL in names, values and ``add_header``
  parameters (HTAB is allowed in values, GH-144118).
- gh-144370: ``wsgiref.handlers.BaseHandler.start_response`` refuses them
  in the status, which becomes the status line.

Module map, one fix module per upstream change, each exporting
``needs_fix(module)`` and ``replacements(module)`` for the shared engine
(``_cpython_security._engine``), with its registry row:

- ``_headers``: gh-143916, seven ``wsgiref.headers.Headers`` methods (where
  each is the stock 3.x body, ``_headers_copies``' copy of it behind the check).
- ``_status``: gh-144370, ``wsgiref.handlers.BaseHandler.start_response``.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = ["patch", "unpatch", "is_patched", "is_vulnerable", "status", "PatchReport",
           "__version__"]
