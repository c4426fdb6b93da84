"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import urllib_request_backport

challenge = urllib_request_backport.old_search('Basic realm="x"')
realm = challenge.group(3) if challenge else ""  # type: str
fixed_scheme = urllib_request_backport.FIXED_RX.pattern  # type: str
request_report = urllib_request_backport.patch()
request_changed = request_report.changed  # type: list[str]
request_exposed = urllib_request_backport.status()["exposed"]  # type: bool
urllib_request_backport.unpatch()
