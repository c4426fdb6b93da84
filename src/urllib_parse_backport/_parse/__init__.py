"""The fix itself: ``parse_qs``/``parse_qsl`` of 2.7's ``urlparse`` or 3.13's ``urllib.parse``.

Why a package of its own: the package, the shim's targets and the self-check
all need "the backport's parse_qs/parse_qsl", and the choice is made once,
here. It holds no state and imports nothing but the policy and compat
modules: ``_py2``/``_py3`` (one per family) split with ``_fields`` and
decode with ``_unquote``.
"""

from .._compat import PY2

if PY2:  # pragma: no cover - exercised by the py27 environment
    from ._py2 import parse_qs, parse_qsl
else:
    from ._py3 import parse_qs, parse_qsl

__all__ = ["parse_qs", "parse_qsl"]
