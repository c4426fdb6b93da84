"""IDNA host-name decoding in linear time (CVE-2022-45061, gh-98433).

The ``idna`` codec (``encodings.idna``), which ``bytes.decode('idna')``,
``str.encode('idna')``, ``socket``, ``ssl``, ``http.client`` and asyncio
run on host names, took time quadratic in a label of right-to-left
characters before the fix: ``b'xn--016c' + b'a' * 3000`` costs seconds to
refuse. :func:`patch` binds gh-98433's fix in the module: ``nameprep``
checks the bidi rules once per label, and ``ToUnicode`` refuses a label
longer than 1024 characters (``UnicodeError: label way too long``)
before any nameprep or punycode work. Importing this package changes
nothing.

Module map: ``_idna`` (the fix: ``needs_fix``, ``replacements``). The
patch functions, start-up switch, logging and ``python -m`` are the shared
package's (``_cpython_security._engine``, ``_startup``, ``_cli``), driven by
this package's row in its registry.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = [
    "patch",
    "unpatch",
    "is_patched",
    "is_vulnerable",
    "status",
    "PatchReport",
    "__version__",
]
