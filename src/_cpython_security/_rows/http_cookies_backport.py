"""The rows of ``http_cookies_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE, FUTURE, PY2
from .._row import Fix

_COOKIES = "Cookie" if PY2 else "http.cookies"
#: python-future's ``future.backports``: 3.3's stdlib modules, vendored, importable on
#: 2.7 and 3.x alike and never updated since (1.0.0, 2024). Each is a row's ``copies``:
#: the fix module is applied to it as to the stdlib module, once something imports it.
_COOKIES_COPY = FUTURE + "http.cookies"

#: What the cookie fixes after the first share (2.7's Morsel has no update, setdefault
#: or __setstate__ of its own: nothing of gh-145599 but js_output to fix there).
_COOKIE_ROW = dict(package="http_cookies_backport", module=_COOKIES, copies=[_COOKIES_COPY],
                   variable="HTTP_COOKIES_BACKPORT_PATCH", options=FORCE)

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(package="http_cookies_backport", cve="CVE-2024-7592", issue="gh-123067",
        summary="cookie value unquoting quadratic in backslashes (CPU exhaustion)",
        exposed="a Cookie header of backslashes costs this process quadratic CPU time",
        unfixed="quadratic in backslashes",
        replaces=[_COOKIES + "._unquote"], fix="http_cookies_backport._unquote", module=_COOKIES,
        copies=[_COOKIES_COPY],
        variable="HTTP_COOKIES_BACKPORT_PATCH", options=FORCE),
    Fix(cve="CVE-2026-0672", issue="gh-143919",
        summary="cookie attributes and values keep control characters (header injection)",
        exposed="a cookie value or attribute with CR LF adds headers to this process's responses",
        unfixed="stores and writes a cookie's control characters unchecked",
        replaces=[_COOKIES + ".Morsel.__setitem__", _COOKIES + ".Morsel.set",
                  _COOKIES + ".BaseCookie.output"]
        + ([] if PY2 else [_COOKIES + ".Morsel.setdefault"]),
        fix="http_cookies_backport._morsel", **_COOKIE_ROW),
    Fix(cve="CVE-2026-3644", issue="gh-145599",
        summary="Morsel.update and js_output keep control characters (header injection)",
        exposed="a cookie filled by update() or unpickled writes CR LF into a header or script",
        unfixed="update(), |=, unpickling and js_output() take control characters unchecked",
        replaces=[_COOKIES + ".Morsel.js_output"] + ([] if PY2 else [
            _COOKIES + ".Morsel.update", _COOKIES + ".Morsel.__setstate__"])
        + ([_COOKIES + ".Morsel.__ior__"] if hasattr(dict, "__ior__") else []),
        fix="http_cookies_backport._morsel_update", **_COOKIE_ROW),
)
