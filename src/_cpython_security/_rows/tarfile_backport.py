"""The rows of ``tarfile_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE
from .._row import Fix

#: What every fix of ``tarfile_backport`` shares: one module, one switch.
_TAR = dict(package="tarfile_backport", module="tarfile", variable="TARFILE_BACKPORT_PATCH",
            options=FORCE)

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(cve="CVE-2025-8194", issue="gh-130577",
        summary="tar members with a negative offset read again for ever (reader hang)",
        exposed="a tar archive with a negative member size keeps this process reading it",
        unfixed="reads a member's negative size as an offset back into the archive",
        replaces=["tarfile.TarInfo._block"], fix="tarfile_backport._offset",
        **_TAR),
    Fix(cve="CVE-2024-6232", issue="gh-121285",
        summary="pax headers read by backtracking regular expressions (CPU exhaustion)",
        exposed="a tar archive with a crafted pax header costs this process seconds of CPU",
        unfixed="reads pax header records with backtracking regular expressions",
        behaviour="a pax header record that is not framed by its length (no keyword, "
                  "'=' or final newline, a length under 5 or past the header) makes "
                  "tarfile raise ReadError at the first member, end the archive later, "
                  "as upstream does",
        # Before CVE-2019-20907's row: on 2.7 its copy holds bpo-39017's check too.
        holds=["CVE-2019-20907"],
        replaces=["tarfile.TarInfo._proc_pax"], fix="tarfile_backport._records",
        **_TAR),
    Fix(cve="CVE-2019-20907", issue="bpo-39017",
        summary="pax header records of length 0 read again for ever (reader hang)",
        exposed="a tar archive with a pax record of length 0 keeps this process reading it",
        unfixed="reads a pax record of length 0 again and again",
        replaces=["tarfile.TarInfo._proc_pax"], fix="tarfile_backport._pax",
        **_TAR),
)
