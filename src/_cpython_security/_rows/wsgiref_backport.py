"""The rows of ``wsgiref_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE
from .._row import Fix

#: What both fixes of ``wsgiref_backport`` share: one switch (the module names are 2.7's too).
_WSGIREF = dict(package="wsgiref_backport", variable="WSGIREF_BACKPORT_PATCH", options=FORCE)

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(cve="CVE-2026-0865", issue="gh-143916",
        summary="response header names and values with CR/LF written as given "
                "(header injection)",
        exposed="a header value with CR/LF adds lines to the responses this process sends",
        unfixed="writes wsgiref header names, values and parameters unchecked",
        replaces=["wsgiref.headers.Headers." + name for name in (
            "__init__", "__setitem__", "__delitem__", "get_all", "get", "setdefault",
            "add_header")],
        fix="wsgiref_backport._headers", module="wsgiref.headers", **_WSGIREF),
    Fix(cve="gh-144370", issue="gh-144370",
        summary="response statuses with CR/LF written into the status line (header injection)",
        exposed="a status with CR/LF adds lines to the responses this process sends",
        unfixed="writes the wsgiref response status unchecked",
        replaces=["wsgiref.handlers.BaseHandler.start_response"],
        fix="wsgiref_backport._status", module="wsgiref.handlers", **_WSGIREF),
)
