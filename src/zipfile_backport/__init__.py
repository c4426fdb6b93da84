"""The zip reader's fixes: a member whose data overlap the next is refused
(CVE-2024-0450, gh-109858); ``zipfile.Path`` ends on a member named with a run of
slashes (CVE-2024-8088, gh-122905 in gh-123270's form); the zip64 end record is
found where its locator says, and checked (CVE-2025-8291, gh-139700).

The stdlib's ``zipfile.Path`` (3.8+; in ``zipfile._path`` from 3.12), which
``importlib.resources`` and applications browse archives with, walks up
each member's name to list the directories it implies. Before the fix a
member named ``//a`` makes that walk yield ``'//'`` for ever:
``Path(zf).iterdir()`` never returns. :func:`patch` binds gh-123270's
``_ancestry``, which stops at a name of slashes alone; every other name
gets the stock walk. 2.7-3.7 have no ``zipfile.Path``: nothing to fix
there. On every interpreter, ``ZipFile`` reads a zip64 archive's end record
at the offset its locator gives and refuses one that disagrees with it
(``BadZipFile``), so that it lists what other readers list, and ``open()``
refuses a member whose data run into the next member's header or the central
directory (a "quoted-overlap" zip bomb). Importing this package changes
nothing.

Module map: ``_overlap`` (CVE-2024-0450: ``needs_fix``, ``replacements``),
``_ancestry`` (CVE-2024-8088: the same two), ``_zip64`` (CVE-2025-8291).
The patch functions, start-up switch, logging and ``python -m`` are the
shared package's (``_cpython_security._engine``, ``_startup``, ``_cli``),
driven by this package's rows in its registry.
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
