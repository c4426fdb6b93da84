"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import tarfile_backport

tarfile_report = tarfile_backport.patch()
tarfile_changed = tarfile_report.changed  # type: list[str]
tarfile_exposed = tarfile_backport.status()["exposed"]  # type: bool
tarfile_lacks = tarfile_backport.is_vulnerable()  # type: bool
tarfile_backport.unpatch()
