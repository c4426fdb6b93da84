"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import email_backport

email_params = email_backport.parseparam('a="b;c"; d=e')  # type: list[str]
email_report = email_backport.patch()
email_changed = email_report.changed  # type: list[str]
email_exposed = email_backport.status()["exposed"]  # type: bool
try:
    raise email_backport.HeaderWriteError("folded header contains newline: 'H: a\\nb'")
except email_backport.HeaderWriteError as refused:
    email_refusal = str(refused)  # type: str
email_backport.unpatch()
