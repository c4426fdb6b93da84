"""``html.parser`` in linear time: CVE-2025-6069 (gh-135462) and CVE-2026-15308 (gh-153030).

The stdlib's ``HTMLParser`` (``HTMLParser.HTMLParser`` on 2.7) takes time
quadratic in the input on two paths before the fixes: ``close()`` rescans
the rest of the input from every construct the input never closes
(``'<!--' * 24000``: seconds), and ``feed()`` copies and rescans the whole
buffer while one construct stays open (an 18 KB tag fed a character at a
time). :func:`patch` binds upstream's fixed methods on the stdlib class, so
every subclass that does not override them gets the fixes. Importing this
package changes nothing.

Module map: ``_eof`` (gh-135462: ``HTMLParser.goahead``) and ``_feed``
(gh-153030: ``HTMLParser.feed``, ``close``, ``reset``), each ``needs_fix``
and ``replacements``; ``_feed``'s ``give_back`` hands the text its
``feed()`` holds back to the stock buffer before ``unpatch()`` unbinds. The
patch functions, start-up switch, logging and ``python -m`` are the shared
package's (``_cpython_security._engine``, ``_startup``, ``_cli``), driven
by this package's rows in its registry.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = ["patch", "unpatch", "is_patched", "is_vulnerable", "status", "PatchReport",
           "__version__"]
