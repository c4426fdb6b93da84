"""The rows of ``zipfile_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

import sys

from . import FORCE
from .._row import Fix

#: What every fix of ``zipfile_backport`` shares: one module, one switch.
_ZIP = dict(package="zipfile_backport", module="zipfile", variable="ZIPFILE_BACKPORT_PATCH",
            options=FORCE)
#: ``zipfile.Path`` (3.8+) reads ``_ancestry`` from ``zipfile``, or from ``zipfile._path``
#: (3.12+): the fix module finds which; the row names the module ``zipfile`` imports.
_ZIP_ANCESTRY = ([] if sys.version_info < (3, 8) else [
    "zipfile._path._ancestry" if sys.version_info >= (3, 12) else "zipfile._ancestry"])

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(cve="CVE-2024-0450", issue="gh-109858",
        summary="zip members whose data overlap the next member read ('quoted-overlap' "
                "zip bomb)",
        exposed="a small zip archive of overlapping members expands to gigabytes in this "
                "process",
        unfixed="reads a member's data into the next member's header or the central "
                "directory",
        behaviour="opening a member whose data run into the next member or the central "
                  "directory raises BadZipFile('Overlapped entries: ...'), as upstream does",
        replaces=["zipfile.ZipFile.open"], fix="zipfile_backport._overlap", **_ZIP),
    Fix(cve="CVE-2024-8088", issue="gh-122905",
        summary="zipfile.Path walks a member named with leading slashes for ever "
                "(reader hang)",
        exposed="a zip member named '//a' keeps zipfile.Path in this process looping",
        unfixed="zipfile.Path's walk up a name of slashes never ends",
        # 2.7-3.7 have no zipfile.Path (nothing to fix there).
        replaces=_ZIP_ANCESTRY, fix="zipfile_backport._ancestry", **_ZIP),
    Fix(cve="CVE-2025-8291", issue="gh-139700",
        summary="zip64 end records read without their locator's offset "
                "(parser differential)",
        exposed="a zip64 archive may list other members to this process than to other "
                "readers",
        unfixed="takes the 56 bytes before the zip64 locator for the zip64 end record, "
                "whatever offset the locator gives",
        behaviour="a zip64 archive whose end records disagree raises BadZipFile "
                  "(is_zipfile() answers False), as upstream does",
        replaces=["zipfile._EndRecData64", "zipfile.is_zipfile"],
        fix="zipfile_backport._zip64", **_ZIP),
)
