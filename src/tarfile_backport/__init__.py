"""The tar reader's fixes: a member's negative offset refused (CVE-2025-8194,
gh-130577), pax headers read without backtracking (CVE-2024-6232, gh-121285)
and a pax record of length 0 refused (CVE-2019-20907, bpo-39017).

The stdlib's ``tarfile``, which ``tarfile.open``, ``getmembers()``,
``extractall()`` and ``shutil.unpack_archive`` read archives through, takes
a member's size as it is written before the fix: a size that reads as
negative sends the reader back to an earlier header, and reading the
archive never ends. :func:`patch` puts gh-130577's check in front of
``TarInfo._block``: a negative count raises ``InvalidHeaderError("invalid
offset")``, which ``tarfile.open`` turns into ``ReadError`` at the first
member and which ends the archive at a later one. On 2.7 a pax header
record whose length reads 0 makes ``_proc_pax`` read it again for ever;
:func:`patch` binds 2.7's body with bpo-39017's check, which raises
``InvalidHeaderError("invalid header")`` there (every 3.x has it).
Before 3.13 a pax header's records are found by regular expressions that
a crafted header makes backtrack (quadratic work); :func:`patch` binds the
stock ``_proc_pax`` with gh-121285's loop, which reads each record by its
length and refuses one that is not framed by it.
Importing this package changes nothing.

Module map: ``_offset`` (CVE-2025-8194), ``_records`` (CVE-2024-6232) and
``_pax`` (CVE-2019-20907), each a fix module (``needs_fix``, ``replacements``).
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
