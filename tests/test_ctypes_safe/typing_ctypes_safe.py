"""Type-checked against the .pyi stubs by the lint environment (mypy --strict,
tools/check_stubs.py).

Also runs as an ordinary module, so the example stays true at run time.
"""

import ctypes

import ctypes_safe

safe = ctypes_safe.from_param(ctypes.c_double, 1e300)
text = repr(safe)  # type: str
ctypes_report = ctypes_safe.patch()
mode = ctypes_report.mode  # type: str | None
changed_names = ctypes_report.changed  # type: list[str]
health = ctypes_safe.status()["exposed"]  # type: bool
ctypes_safe.unpatch()
