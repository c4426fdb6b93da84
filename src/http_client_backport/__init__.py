"""Backported security fixes of ``http.client`` (``httplib`` on 2.7).

:func:`patch` binds the fixes this interpreter lacks (read from the stock
module's behaviour, never its version); importing this package changes
nothing. Each fix is a module below with a registry row of its own.

The header-injection guards: each stops a CR or LF, or another control
character, from reaching the bytes an ``HTTPConnection`` writes where the
stock code copies it in as given, with upstream's exception and message;
everything it lets through goes to the stock method unchanged, so an
honest request is the same bytes.

- CVE-2020-26116 (bpo-39603): ``putrequest`` refuses a method with control
  characters (stock 2.7.18 lacks it).
- CVE-2019-18348 (bpo-38576): ``HTTPConnection()`` refuses a host with
  control characters (2.7.18 and the 3.x releases this project targets
  have it; the guard is for those that do not).
- gh-146211 (no CVE in upstream's NEWS; called CVE-2026-1502 elsewhere):
  the CONNECT request of ``set_tunnel`` refuses CR/LF in the tunnel host
  and headers, at ``connect()`` (every interpreter before the 2026 fix).

Module map, one fix module per upstream change, each exporting
``needs_fix(module)`` and ``replacements(module)`` for the shared engine
(``_cpython_security._engine``), with its registry row:

- ``_method``: bpo-39603, ``HTTPConnection.putrequest``.
- ``_host``: bpo-38576, ``HTTPConnection.__init__``.
- ``_tunnel``: gh-146211, ``HTTPConnection._tunnel``.
- ``_continue_headers``: bpo-44022 (CVE-2021-3737), ``HTTPResponse.begin``: the
  header lines after a ``100 Continue`` are counted (2.7).
- ``_interim``: gh-150743, ``HTTPResponse.begin`` and the trailer reader: at
  most 100 1xx responses and 100 trailer lines.
- ``_content_length``: gh-119451 (CVE-2025-13836), ``HTTPResponse._safe_read``:
  a claimed length read in bounded pieces.
- ``_responses``: what the three response bounds share (the bounded loop).
- ``_wrap``: what the fix modules share (the original, the replacement's name).

The response bounds: each caps what a server (or anyone between) can make
the client read or allocate, with upstream's exceptions and messages.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = ["patch", "unpatch", "is_patched", "is_vulnerable", "status", "PatchReport",
           "__version__"]
