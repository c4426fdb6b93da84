"""Python 2/3 differences of http_cookies_backport, in one place.

Why: the package runs unchanged on 2.7 and 3.6-3.13 and imports neither
other package of the distribution (each carries its own ``_compat``).
"""

import sys

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    from thread import allocate_lock
    #: The stdlib module whose ``_unquote`` the fix replaces.
    STDLIB_MODULE = "Cookie"
    #: 2.7's ``_unquote`` starts with ``len(str) < 2``: ``None`` raises TypeError there,
    #: where 3.x's ``str is None or ...`` returns it.
    NONE_PASSES = False
else:
    from _thread import allocate_lock
    STDLIB_MODULE = "http.cookies"
    NONE_PASSES = True

__all__ = ["allocate_lock", "STDLIB_MODULE", "NONE_PASSES"]
