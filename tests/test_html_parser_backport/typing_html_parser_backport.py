"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import html_parser_backport

html_report = html_parser_backport.patch()
html_changed = html_report.changed  # type: list[str]
html_exposed = html_parser_backport.status()["exposed"]  # type: bool
html_patched = html_parser_backport.is_patched()  # type: bool
html_vulnerable = html_parser_backport.is_vulnerable()  # type: bool
html_parser_backport.unpatch()
