"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import http_client_backport

client_report = http_client_backport.patch()
client_changed = client_report.changed  # type: list[str]
client_patched = http_client_backport.is_patched()  # type: bool
client_lacks = http_client_backport.is_vulnerable()  # type: bool
client_exposed = http_client_backport.status()["exposed"]  # type: bool
http_client_backport.unpatch()
