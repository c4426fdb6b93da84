"""The email package's header fixes: CVE-2024-6923 (gh-121650), gh-144125
(CVE-2026-1299) and gh-136063.

- ``email.generator.Generator`` (and ``BytesGenerator``, gh-144125) writes a
  header whose folded form holds a newline that is no fold, so a header value
  can add headers (``Bcc:``) or start the body; patched, each folded header is
  checked first and refused with :class:`HeaderWriteError`, as fixed CPython's.
- ``email.message._parseparam`` (``get_param``, ``get_filename``,
  ``get_boundary``, ...) is quadratic in the ``;`` of a quoted parameter
  value; patched, it is gh-136063's linear loop, with the same results.

:func:`patch` binds the fixes this interpreter lacks (2.7 too, in its email
package's shape: see the docs); importing this package changes nothing.

Module map: ``_generator`` (gh-121650), ``_bytes_generator`` (gh-144125),
``_params`` (gh-136063), each a fix module (``needs_fix``, ``replacements``).
The patch functions, start-up switch, logging and ``python -m`` are the shared
package's (``_cpython_security._engine``, ``_startup``, ``_cli``), driven by
this package's rows in its registry.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

from ._generator import HeaderWriteError
from ._params import parseparam

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = [
    "HeaderWriteError",
    "parseparam",
    "patch",
    "unpatch",
    "is_patched",
    "is_vulnerable",
    "status",
    "PatchReport",
    "__version__",
]
