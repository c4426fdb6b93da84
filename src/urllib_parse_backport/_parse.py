"""The parsers of the running interpreter's family: 2.7's ``urlparse`` or 3.13's ``urllib.parse``.

Why a module of its own: the package, the shim's targets and the self-check all
need "the backport's parse_qs/parse_qsl", and the choice is made once, here.
"""

from ._compat import PY2

if PY2:  # pragma: no cover - exercised by the py27 environment
    from ._parse2 import parse_qs, parse_qsl
else:
    from ._parse3 import parse_qs, parse_qsl

__all__ = ["parse_qs", "parse_qsl"]
