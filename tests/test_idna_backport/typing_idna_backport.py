"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import idna_backport

idna_report = idna_backport.patch()
idna_changed = idna_report.changed  # type: list[str]
idna_exposed = idna_backport.status()["exposed"]  # type: bool
idna_lacks = idna_backport.is_vulnerable()  # type: bool
idna_backport.unpatch()
