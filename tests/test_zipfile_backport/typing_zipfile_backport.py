"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import zipfile_backport

zipfile_report = zipfile_backport.patch()
zipfile_changed = zipfile_report.changed  # type: list[str]
zipfile_exposed = zipfile_backport.status()["exposed"]  # type: bool
zipfile_lacks = zipfile_backport.is_vulnerable()  # type: bool
zipfile_backport.unpatch()
