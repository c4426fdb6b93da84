"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import wsgiref_backport

wsgiref_report = wsgiref_backport.patch()
wsgiref_changed = wsgiref_report.changed  # type: list[str]
wsgiref_patched = wsgiref_backport.is_patched()  # type: bool
wsgiref_lacks = wsgiref_backport.is_vulnerable()  # type: bool
wsgiref_exposed = wsgiref_backport.status()["exposed"]  # type: bool
wsgiref_backport.unpatch()
