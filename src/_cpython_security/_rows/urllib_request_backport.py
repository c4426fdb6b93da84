"""The rows of ``urllib_request_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE, FUTURE, PY2
from .._row import Fix

_REQUEST = "urllib2" if PY2 else "urllib.request"
_REQUEST_ROW = dict(package="urllib_request_backport", variable="URLLIB_REQUEST_BACKPORT_PATCH",
                    options=FORCE, copies=[FUTURE + "urllib.request"])

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(cve="CVE-2020-8492", issue="bpo-39503",
        summary="basic-auth realm regex exponential in commas (CPU exhaustion)",
        exposed="a WWW-Authenticate header of commas stalls this process's HTTP client",
        unfixed="searches each auth challenge with a pattern exponential in commas",
        replaces=[_REQUEST + ".AbstractBasicAuthHandler.http_error_auth_reqed"],
        fix="urllib_request_backport._basic_auth", module=_REQUEST, **_REQUEST_ROW),
    Fix(cve="CVE-2021-3733", issue="bpo-43075",
        summary="basic-auth realm regex super-linear in commas (CPU exhaustion)",
        exposed="AbstractBasicAuthHandler.rx costs this process super-linear CPU time",
        unfixed="the basic-auth realm pattern is not bpo-43075's",
        replaces=[_REQUEST + ".AbstractBasicAuthHandler.rx"],
        fix="urllib_request_backport._basic_auth_rx", module=_REQUEST, **_REQUEST_ROW),
    Fix(cve="CVE-2025-15282", issue="gh-143925",
        summary="data: URL media types keep control characters (response header injection)",
        exposed="a data: URL with a newline in its media type adds headers to the response",
        unfixed="writes a data: URL's media type into the headers unchecked",
        replaces=[] if PY2 else ["urllib.request.DataHandler.data_open"],
        # 2.7 has no urllib.request (urllib2 has no data: handler): nothing to fix.
        fix="urllib_request_backport._data_url", module="urllib.request", **_REQUEST_ROW),
)
