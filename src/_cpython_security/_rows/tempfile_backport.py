"""The rows of ``tempfile_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE
from .._row import Fix

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(package="tempfile_backport", cve="CVE-2023-6597", issue="gh-91133",
        summary="TemporaryDirectory cleanup changing the mode of a symlink's target",
        exposed="a symlink in a temporary directory has its target's mode set to 0o700 "
                "when the cleanup fails on it",
        unfixed="resets modes during cleanup with os.chmod, which follows symlinks",
        replaces=["tempfile.TemporaryDirectory._rmtree"], fix="tempfile_backport._symlinks",
        module="tempfile", variable="TEMPFILE_BACKPORT_PATCH",
        options=FORCE),
)
