"""The registry's rows, one module per fix package, named after it.

Why one module per package: a row is read where it is needed, and only
there. At start-up the first import of a watched module loads the rows of
the packages that watch it (``fixes_of``), not the whole registry, so what
that import costs does not grow with the number of fixes; the check, the
docs and the tests read every row through ``_registry``, which assembles
them in ``ORDER``. Reading a row never imports its package: a row names its
fix module, imported only when its probe runs. What several packages' rows
share is here.
"""

import sys

__all__ = ["ORDER", "fixes_of", "FORCE", "FUTURE", "PY2"]

PY2 = sys.version_info[0] == 2

#: python-future's ``future.backports``: 3.3's stdlib modules, vendored, importable on
#: 2.7 and 3.x alike and never updated since (1.0.0, 2024). Each is a row's ``copies``:
#: the fix module is applied to it as to the stdlib module, once something imports it.
FUTURE = "future.backports."

#: The value every package's switch takes beyond on and off: ``patch(force=True)``.
FORCE = (("force", {"force": True}),)

#: The packages, in the order reports list them (each one's rows in its module's order).
ORDER = ("urllib_parse_backport", "ctypes_safe", "http_cookies_backport", "email_backport",
         "html_parser_backport", "urllib_request_backport", "http_client_backport",
         "wsgiref_backport", "tarfile_backport", "zipfile_backport", "tempfile_backport",
         "idna_backport", "ipaddress_backport")

_LOADED = {}


def fixes_of(package):
    """The rows of *package* (one of ``ORDER``), in order: its module, loaded once."""
    try:
        return list(_LOADED[package])
    except KeyError:
        if package not in ORDER:
            raise
    rows = __import__("%s.%s" % (__name__, package), None, None, ("ROWS",)).ROWS
    return list(_LOADED.setdefault(package, rows))
