"""A safe ``repr`` for ctypes' ``from_param`` results (CVE-2021-3177, bpo-42938).

Unpatched CPython formats ``repr(c_double.from_param(x))`` with ``sprintf("%f")``
into a 256-byte stack buffer, which overflows for large values.
"""

from urllib_parse_backport._version import __version__

__all__ = ["__version__"]
