"""The rows of ``urllib_parse_backport`` (the query-string and ``urlsplit`` fixes):
read by the registry (``_registry``) and, at start-up, on their own
(``_rows.fixes_of``), without importing the package.
"""

import os

from . import FUTURE, PY2
from .._probes import always as _always, parser_unfixed as _parser_unfixed
from .._probes import split_probe as _split_probe
from .._row import Fix

_PARSER = "urlparse" if PY2 else "urllib.parse"


def _separator_notes():
    """The line for a ``PYTHON_URLLIB_QS_SEPARATOR`` that will make every parse raise.

    Red Hat's rule: one character or ``legacy``; the file is read only when
    the variable is not set. A usable variable, and no file, cost nothing
    here; otherwise the package's ``_policy`` words the problem."""
    value = os.environ.get("PYTHON_URLLIB_QS_SEPARATOR")
    if value is None and not os.path.exists("/etc/python/urllib.cfg"):
        return []
    if value is not None and (value == "legacy" or len(value) == 1):
        return []
    return __import__("urllib_parse_backport._shim._startup", None, None,
                      ("policy_problem",)).policy_problem()


#: The modules whose own parsers or checks ``frameworks`` adapts: each adapter's
#: ``module`` in ``urllib_parse_backport``'s shim (a test keeps the lists equal).
FRAMEWORK_MODULES = ("bottle", "cherrypy._cpreqbody", "cherrypy.lib.httputil",
                     "django.core.validators", "django.utils.http", "multipart.multipart",
                     "python_multipart.multipart", "twisted.web.http", "webob.compat")

#: What every fix of ``urllib_parse_backport`` shares: one switch for the module's fixes.
_URLLIB = dict(package="urllib_parse_backport", startup="urllib_parse_backport._shim._startup",
               copies=[FUTURE + "urllib.parse"],
               variable="URLLIB_PARSE_BACKPORT_PATCH",
               options=[("force", {"force": True}), ("frameworks", {"frameworks": True})],
               option_modules={"frameworks": FRAMEWORK_MODULES}, notes=_separator_notes,
               umbrella="frameworks", also_variables=["PYTHON_URLLIB_QS_SEPARATOR"])


def _split_fix(**row):
    """A fix of ``urlsplit``: its probe is ``SPLIT_PROBES[cve]``, on the module's function."""
    return Fix(replaces=[_PARSER + ".urlsplit", _PARSER + ".urlparse (through urlsplit)"],
               probes={_PARSER: _split_probe(row["cve"])}, **dict(_URLLIB, **row))


#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(cve="CVE-2021-23336", issue="bpo-42967",
        summary="query strings split on ';' (web cache poisoning)",
        exposed="a parser this process calls hands the app the smuggled q",
        behaviour="parse_qs and parse_qsl split on '&' only: 'a=1;b=2' is one field, as "
                  "upstream's default separator has it",
        replaces=[_PARSER + ".parse_qs", _PARSER + ".parse_qsl"],
        # python-future's copy is 3.3's parser, unfixed everywhere.
        probes={_PARSER: _parser_unfixed, FUTURE + "urllib.parse": _always}, **_URLLIB),
    _split_fix(
        cve="CVE-2023-24329", issue="gh-102153",
        summary="URLs with a leading blank or control character lose their host "
                "(blocklist bypass)",
        exposed="urlsplit keeps a leading blank (CVE-2023-24329)",
        upstream_name="_WHATWG_C0_CONTROL_OR_SPACE",
        copy_lacks="leading C0 control characters and spaces are not stripped from the URL"),
    _split_fix(
        cve="CVE-2022-0391", issue="bpo-43882",
        summary="tab, CR and LF kept inside URLs (header injection, filter bypass)",
        exposed="urlsplit keeps tab, CR and LF (CVE-2022-0391)",
        upstream_name="_UNSAFE_URL_BYTES_TO_REMOVE",
        copy_lacks="tab, CR and LF are not removed from the URL"),
    _split_fix(
        cve="CVE-2024-11168", issue="gh-103848",
        summary="bracketed hosts that are no IPv6 address accepted (SSRF parser differential)",
        exposed="urlsplit accepts any bracketed host (CVE-2024-11168)",
        upstream_name="_check_bracketed_host",
        copy_lacks="a bracketed host is not checked to be an IPv6 or IPvFuture address"),
    _split_fix(
        cve="CVE-2025-0938", issue="gh-105704",
        summary="square brackets accepted around or inside a host name (parser differential)",
        exposed="urlsplit accepts brackets around a host name (CVE-2025-0938)",
        upstream_name="_check_bracketed_netloc",
        copy_lacks="text next to a bracketed host ('a[::1]', '[::1]b') is not refused"),
)
