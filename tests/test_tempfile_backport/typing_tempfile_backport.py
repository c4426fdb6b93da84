"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import tempfile_backport

tempfile_report = tempfile_backport.patch()
tempfile_changed = tempfile_report.changed  # type: list[str]
tempfile_exposed = tempfile_backport.status()["exposed"]  # type: bool
tempfile_lacks = tempfile_backport.is_vulnerable()  # type: bool
tempfile_backport.unpatch()
