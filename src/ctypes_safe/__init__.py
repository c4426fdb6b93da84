"""A safe ``repr`` for ctypes' ``from_param`` results (CVE-2021-3177, bpo-42938).

Unpatched CPython formats ``repr(c_double.from_param(x))`` with ``sprintf("%f")``
into a 256-byte stack buffer, which overflows for large values.
:func:`from_param` returns objects that print fixed CPython's repr in pure
Python; :func:`patch` makes ctypes' own ``from_param`` do so. Importing this
package changes nothing.
"""

from urllib_parse_backport._version import __version__

from ._carg import SafeCArg, from_param
from ._shim import PatchReport, is_patched, is_vulnerable, patch, unpatch

__all__ = [
    "from_param",
    "patch",
    "unpatch",
    "is_patched",
    "is_vulnerable",
    "SafeCArg",
    "PatchReport",
    "__version__",
]
