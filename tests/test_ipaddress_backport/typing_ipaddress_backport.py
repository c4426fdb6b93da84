"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import ipaddress_backport

ipaddress_report = ipaddress_backport.patch()
ipaddress_changed = ipaddress_report.changed  # type: list[str]
ipaddress_exposed = ipaddress_backport.status()["exposed"]  # type: bool
ipaddress_lacks = ipaddress_backport.is_vulnerable()  # type: bool
ipaddress_backport.unpatch()
