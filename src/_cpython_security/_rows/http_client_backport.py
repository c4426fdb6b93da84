"""The rows of ``http_client_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE, FUTURE, PY2
from .._row import Fix

_HTTP_CLIENT = "httplib" if PY2 else "http.client"
#: What every fix of ``http_client_backport`` shares: one switch for the package's fixes.
_CLIENT = dict(package="http_client_backport", module=_HTTP_CLIENT,
               copies=[FUTURE + "http.client"], variable="HTTP_CLIENT_BACKPORT_PATCH",
               options=FORCE)

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(cve="CVE-2020-26116", issue="bpo-39603",
        summary="HTTP methods with CR/LF written into the request line (header injection)",
        exposed="a method with CR/LF adds headers or a request to what this process sends",
        unfixed="writes the request method unchecked",
        replaces=[_HTTP_CLIENT + ".HTTPConnection.putrequest"],
        fix="http_client_backport._method", **_CLIENT),
    Fix(cve="CVE-2019-18348", issue="bpo-38576",
        summary="connection hosts with control characters accepted (header injection)",
        exposed="a host with CR/LF adds headers to the requests this process sends",
        unfixed="keeps a connection's host unchecked",
        replaces=[_HTTP_CLIENT + ".HTTPConnection.__init__"],
        fix="http_client_backport._host", **_CLIENT),
    Fix(cve="gh-146211", issue="gh-146211",
        summary="tunnel hosts and headers with CR/LF written into CONNECT (header injection)",
        exposed="a tunnel host or header with CR/LF adds lines to what this process sends a proxy",
        unfixed="writes the CONNECT request's host and headers unchecked",
        replaces=[_HTTP_CLIENT + ".HTTPConnection._tunnel"],
        fix="http_client_backport._tunnel", **_CLIENT),
    Fix(cve="CVE-2021-3737", issue="bpo-44022",
        summary="header lines after a 100 Continue read without end (client hang)",
        exposed="a server's endless 100 Continue header lines keep this process reading",
        unfixed="reads a 100 Continue response's header lines without a bound",
        behaviour="HTTPResponse.begin() raises HTTPException past 100 header lines after a "
                  "100 Continue",
        replaces=[_HTTP_CLIENT + ".HTTPResponse.begin"],
        fix="http_client_backport._continue_headers", **_CLIENT),
    Fix(cve="gh-150743", issue="gh-150743",
        summary="100 Continue responses and trailer lines read without end (client hang)",
        exposed="a server's endless 100 Continue responses or trailer lines keep this "
                "process reading",
        unfixed="reads 100 Continue responses and trailer lines without a bound",
        behaviour="HTTPResponse.begin() raises HTTPException at the 100th 100 Continue "
                  "response, read() at the 101st trailer line",
        replaces=[_HTTP_CLIENT + ".HTTPResponse.begin", _HTTP_CLIENT + ".HTTPResponse."
                  + ("_read_chunked" if PY2 else "_read_and_discard_trailer")],
        fix="http_client_backport._interim", **_CLIENT),
    Fix(cve="CVE-2025-13836", issue="gh-119451",
        summary="a response's claimed Content-Length allocated before the body arrives "
                "(memory exhaustion)",
        exposed="a server's huge Content-Length makes this process allocate that much",
        unfixed="allocates a body's claimed length in one read",
        replaces=[_HTTP_CLIENT + ".HTTPResponse._safe_read"],
        fix="http_client_backport._content_length", **_CLIENT),
)
