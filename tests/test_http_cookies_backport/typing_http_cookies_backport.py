"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import http_cookies_backport

cookie_value = http_cookies_backport.unquote('"a\\"b"')  # type: str
cookie_report = http_cookies_backport.patch()
cookies_changed = cookie_report.changed  # type: list[str]
cookies_exposed = http_cookies_backport.status()["exposed"]  # type: bool
http_cookies_backport.unpatch()
