"""cpython_security as an application uses it; ``tools/check_stubs.py`` type-checks it
against the stubs with ``mypy --strict`` (it runs as an ordinary module too)."""

from typing import Dict, List

import cpython_security


def health() -> Dict[str, List[Dict[str, str]]]:
    cpython_security.patch()
    found: List[cpython_security.Exposed] = cpython_security.exposed()
    return {"exposed": [record.as_dict() for record in found]}


def ids() -> List[str]:
    return [record.fix + " " + record.package + " " + record.module + " " + record.issue
            for record in cpython_security.exposed()]
