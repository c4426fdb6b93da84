"""A safe ``repr`` for ctypes parameter objects (CVE-2021-3177, bpo-42938).

Unpatched CPython formats ``repr(c_double.from_param(x))`` with ``sprintf("%f")``
into a 256-byte stack buffer, which overflows for large values.
:func:`from_param` returns objects that print fixed CPython's repr in pure
Python; :func:`patch` gives every ctypes parameter object that repr. Importing
this package changes nothing.
"""

from ._api import is_patched, is_vulnerable, patch, status, unpatch
from ._carg import SafeCArg, from_param
from ._report import PatchReport
from ._version import __version__

__all__ = [
    "from_param",
    "patch",
    "unpatch",
    "is_patched",
    "is_vulnerable",
    "status",
    "SafeCArg",
    "PatchReport",
    "__version__",
]
