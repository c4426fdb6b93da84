"""The temporary directory's fix: ``TemporaryDirectory``'s cleanup never changes the
mode of a symbolic link's target (CVE-2023-6597, gh-91133).

From 3.8 ``TemporaryDirectory`` resets the mode of an entry its cleanup may
not remove, and before the fix it did so through a symbolic link: a link in
the directory (unpacked from an archive, or planted by another user) had its
target's mode set to ``0o700``. :func:`patch` binds upstream's cleanup where
this interpreter lacks it (3.8.18, 3.9.18, 3.10.13, 3.11.7), read from the
stock module and never its version; 2.7 has no ``TemporaryDirectory``, and
3.6 and 3.7 reset no mode. Importing this package changes nothing.

Module map: ``_symlinks`` (CVE-2023-6597: ``needs_fix``, ``replacements``).
The patch functions, start-up switch, logging and ``python -m`` are the
shared package's (``_cpython_security._engine``, ``_startup``, ``_cli``),
driven by this package's row in its registry.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = ["patch", "unpatch", "is_patched", "is_vulnerable", "status", "PatchReport",
           "__version__"]
