"""The registry of fixes: one row per fix, the only place the shared package names a package.

Each row says which CVE and upstream issue the fix is for, the stdlib names
it replaces, the behaviour probes that say whether this interpreter needs
it, the module that applies it (imported by name, only when due: importing
a package is the cost a start-up switch must not pay) and its knob. The
start-up switches (``_startup``), ``cpython-security-check`` (``_check``),
and the docs' coverage page read this table; ``tests/test_design.py``
checks that no other module of the shared package names a package.

Probes read the module they are given and never change it; a probe that
raises counts as "needs it" (the package's own check then decides). No
probe reads a version number.
"""

import os
import sys

from ._probes import SPLIT_PROBES  # noqa: F401 - the shim's urlsplit probes, by row
from ._probes import always as _always, parser_unfixed as _parser_unfixed
from ._probes import repr_unfixed as _repr_unfixed, split_probe as _split_probe
from ._row import Fix  # noqa: F401 - the rows' class, named by its users here

__all__ = ["Fix", "FIXES", "BY_PACKAGE", "PACKAGES", "fixes_of", "variable_of",
           "keep_off", "SPLIT_PROBES"]

_PY2 = sys.version_info[0] == 2


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


_PARSER = "urlparse" if _PY2 else "urllib.parse"
_COOKIES = "Cookie" if _PY2 else "http.cookies"

#: python-future's ``future.backports``: 3.3's stdlib modules, vendored, importable on
#: 2.7 and 3.x alike and never updated since (1.0.0, 2024). Each is a row's ``copies``:
#: the fix module is applied to it as to the stdlib module, once something imports it.
_FUTURE = "future.backports."
_COOKIES_COPY = _FUTURE + "http.cookies"

#: What the cookie fixes after the first share (2.7's Morsel has no update, setdefault
#: or __setstate__ of its own: nothing of gh-145599 but js_output to fix there).
_COOKIE_ROW = dict(package="http_cookies_backport", module=_COOKIES, copies=[_COOKIES_COPY],
                   variable="HTTP_COOKIES_BACKPORT_PATCH", options=[("force", {"force": True})])

#: The modules whose own parsers or checks ``frameworks`` adapts: each adapter's
#: ``module`` in ``urllib_parse_backport``'s shim (a test keeps the lists equal).
FRAMEWORK_MODULES = ("bottle", "cherrypy._cpreqbody", "cherrypy.lib.httputil",
                     "django.core.validators", "django.utils.http", "multipart.multipart",
                     "python_multipart.multipart", "twisted.web.http", "webob.compat")

#: What every fix of ``urllib_parse_backport`` shares: one switch for the module's fixes.
_URLLIB = dict(package="urllib_parse_backport", startup="urllib_parse_backport._shim._startup",
               copies=[_FUTURE + "urllib.parse"],
               variable="URLLIB_PARSE_BACKPORT_PATCH",
               options=[("force", {"force": True}), ("frameworks", {"frameworks": True})],
               option_modules={"frameworks": FRAMEWORK_MODULES}, notes=_separator_notes,
               umbrella="frameworks", also_variables=["PYTHON_URLLIB_QS_SEPARATOR"])


def _split_fix(**row):
    """A fix of ``urlsplit``: its probe is ``SPLIT_PROBES[cve]``, on the module's function."""
    return Fix(replaces=[_PARSER + ".urlsplit", _PARSER + ".urlparse (through urlsplit)"],
               probes={_PARSER: _split_probe(row["cve"])}, **dict(_URLLIB, **row))


#: What every fix of ``email_backport`` shares: one switch for the package's fixes.
_EMAIL = dict(variable="EMAIL_BACKPORT_PATCH", options=[("force", {"force": True})])
_GENERATOR_COPY, _MESSAGE_COPY = [_FUTURE + "email.generator"], [_FUTURE + "email.message"]
_HTML_PARSER = "HTMLParser" if _PY2 else "html.parser"
_REQUEST = "urllib2" if _PY2 else "urllib.request"
_REQUEST_ROW = dict(package="urllib_request_backport", variable="URLLIB_REQUEST_BACKPORT_PATCH",
                    options=[("force", {"force": True})], copies=[_FUTURE + "urllib.request"])
_HTTP_CLIENT = "httplib" if _PY2 else "http.client"
#: What every fix of ``http_client_backport`` shares: one switch for the package's fixes.
_CLIENT = dict(package="http_client_backport", module=_HTTP_CLIENT,
               copies=[_FUTURE + "http.client"], variable="HTTP_CLIENT_BACKPORT_PATCH",
               options=[("force", {"force": True})])
#: What both fixes of ``wsgiref_backport`` share: one switch (the module names are 2.7's too).
_WSGIREF = dict(package="wsgiref_backport", variable="WSGIREF_BACKPORT_PATCH",
                options=[("force", {"force": True})])
#: ``zipfile.Path`` (3.8+) reads ``_ancestry`` from ``zipfile``, or from ``zipfile._path``
#: (3.12+): the fix module finds which; the row names the module ``zipfile`` imports.
_ZIP_ANCESTRY = ([] if sys.version_info < (3, 8) else [
    "zipfile._path._ancestry" if sys.version_info >= (3, 12) else "zipfile._ancestry"])
_HTML = dict(package="html_parser_backport", module=_HTML_PARSER, copies=[_FUTURE + "html.parser"],
             variable="HTML_PARSER_BACKPORT_PATCH", options=[("force", {"force": True})])

#: Every fix this distribution carries, in the order reports list them.
FIXES = (
    Fix(cve="CVE-2021-23336", issue="bpo-42967",
        summary="query strings split on ';' (web cache poisoning)",
        exposed="a parser this process calls hands the app the smuggled q",
        behaviour="parse_qs and parse_qsl split on '&' only: 'a=1;b=2' is one field, as "
                  "upstream's default separator has it",
        replaces=[_PARSER + ".parse_qs", _PARSER + ".parse_qsl"],
        # python-future's copy is 3.3's parser, unfixed everywhere.
        probes={_PARSER: _parser_unfixed, _FUTURE + "urllib.parse": _always}, **_URLLIB),
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
    Fix(package="ctypes_safe", cve="CVE-2021-3177", issue="bpo-42938",
        summary="ctypes parameter repr overflows a stack buffer",
        exposed="repr() of a ctypes double parameter can overflow the stack in this process",
        replaces=["_ctypes.CArgObject.__repr__"], probes={"ctypes": _repr_unfixed},
        variable="CTYPES_SAFE_PATCH", options=[("force", {"force": True})]),
    Fix(package="http_cookies_backport", cve="CVE-2024-7592", issue="gh-123067",
        summary="cookie value unquoting quadratic in backslashes (CPU exhaustion)",
        exposed="a Cookie header of backslashes costs this process quadratic CPU time",
        unfixed="quadratic in backslashes",
        replaces=[_COOKIES + "._unquote"], fix="http_cookies_backport._unquote", module=_COOKIES,
        copies=[_COOKIES_COPY],
        variable="HTTP_COOKIES_BACKPORT_PATCH", options=[("force", {"force": True})]),
    Fix(cve="CVE-2026-0672", issue="gh-143919",
        summary="cookie attributes and values keep control characters (header injection)",
        exposed="a cookie value or attribute with CR LF adds headers to this process's responses",
        unfixed="stores and writes a cookie's control characters unchecked",
        replaces=[_COOKIES + ".Morsel.__setitem__", _COOKIES + ".Morsel.set",
                  _COOKIES + ".BaseCookie.output"]
        + ([] if _PY2 else [_COOKIES + ".Morsel.setdefault"]),
        fix="http_cookies_backport._morsel", **_COOKIE_ROW),
    Fix(cve="CVE-2026-3644", issue="gh-145599",
        summary="Morsel.update and js_output keep control characters (header injection)",
        exposed="a cookie filled by update() or unpickled writes CR LF into a header or script",
        unfixed="update(), |=, unpickling and js_output() take control characters unchecked",
        replaces=[_COOKIES + ".Morsel.js_output"] + ([] if _PY2 else [
            _COOKIES + ".Morsel.update", _COOKIES + ".Morsel.__setstate__"])
        + ([_COOKIES + ".Morsel.__ior__"] if hasattr(dict, "__ior__") else []),
        fix="http_cookies_backport._morsel_update", **_COOKIE_ROW),
    Fix(package="email_backport", cve="CVE-2024-6923", issue="gh-121650",
        summary="email headers written with a newline that is no fold (header injection)",
        exposed="a header value with a newline adds headers or a body to mail this process writes",
        unfixed="writes each folded header unchecked",
        replaces=["email.generator.Generator._write_headers"],
        fix="email_backport._generator", module="email.generator", copies=_GENERATOR_COPY,
        **_EMAIL),
    Fix(package="email_backport", cve="CVE-2026-1299", issue="gh-144125",
        summary="BytesGenerator writes a header with a newline that is no fold (header injection)",
        exposed="a header value with a newline adds headers or a body to mail as_bytes() writes",
        unfixed="BytesGenerator writes each folded header unchecked",
        replaces=(["email.generator (2.7 has no BytesGenerator)"] if _PY2
                  else ["email.generator.BytesGenerator._write_headers"]),
        fix="email_backport._bytes_generator", module="email.generator", copies=_GENERATOR_COPY,
        **_EMAIL),
    Fix(package="email_backport", cve="gh-136063", issue="gh-136063",
        summary="email header parameters parsed in time quadratic in ';' (CPU exhaustion)",
        exposed="a Content-Type of '\"' and many ';' costs this process quadratic CPU time",
        unfixed="quadratic in the ';' of a quoted parameter",
        replaces=["email.message._parseparam"],
        fix="email_backport._params", module="email.message", copies=_MESSAGE_COPY, **_EMAIL),
    Fix(cve="CVE-2025-6069", issue="gh-135462",
        summary="HTMLParser.close() rescans the input from each unclosed tag or comment "
                "(CPU exhaustion)",
        exposed="HTML of many unclosed '<a ' or '<!--' costs this process quadratic CPU time",
        unfixed="close() quadratic in unclosed constructs",
        behaviour="HTMLParser.close() drops a start or end tag left open at the end of the "
                  "input, and reports an open comment or declaration as one, as HTML5 says",
        replaces=[_HTML_PARSER + ".HTMLParser.goahead"], fix="html_parser_backport._eof",
        **_HTML),
    Fix(cve="CVE-2026-15308", issue="gh-153030",
        summary="HTMLParser.feed() rescans an open construct on every call (CPU exhaustion)",
        exposed="an open HTML tag fed in small pieces costs this process quadratic CPU time",
        unfixed="feed() quadratic while a construct stays open",
        behaviour="a construct left open across HTMLParser.feed() calls gives its events at a "
                  "later feed() or at close()",
        replaces=[_HTML_PARSER + ".HTMLParser.feed", _HTML_PARSER + ".HTMLParser.close",
                  _HTML_PARSER + ".HTMLParser.reset"], fix="html_parser_backport._feed",
        **_HTML),
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
        replaces=[] if _PY2 else ["urllib.request.DataHandler.data_open"],
        # 2.7 has no urllib.request (urllib2 has no data: handler): nothing to fix.
        fix="urllib_request_backport._data_url", module="urllib.request", **_REQUEST_ROW),
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
                  + ("_read_chunked" if _PY2 else "_read_and_discard_trailer")],
        fix="http_client_backport._interim", **_CLIENT),
    Fix(cve="CVE-2025-13836", issue="gh-119451",
        summary="a response's claimed Content-Length allocated before the body arrives "
                "(memory exhaustion)",
        exposed="a server's huge Content-Length makes this process allocate that much",
        unfixed="allocates a body's claimed length in one read",
        replaces=[_HTTP_CLIENT + ".HTTPResponse._safe_read"],
        fix="http_client_backport._content_length", **_CLIENT),
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
    Fix(package="tarfile_backport", cve="CVE-2025-8194", issue="gh-130577",
        summary="tar members with a negative offset read again for ever (reader hang)",
        exposed="a tar archive with a negative member size keeps this process reading it",
        unfixed="reads a member's negative size as an offset back into the archive",
        replaces=["tarfile.TarInfo._block"], fix="tarfile_backport._offset",
        module="tarfile", variable="TARFILE_BACKPORT_PATCH",
        options=[("force", {"force": True})]),
    Fix(package="tarfile_backport", cve="CVE-2024-6232", issue="gh-121285",
        summary="pax headers read by backtracking regular expressions (CPU exhaustion)",
        exposed="a tar archive with a crafted pax header costs this process seconds of CPU",
        unfixed="reads pax header records with backtracking regular expressions",
        behaviour="a pax header record that is not framed by its length (no keyword, "
                  "'=' or final newline, a length under 5 or past the header) makes "
                  "tarfile raise ReadError at the first member, end the archive later, "
                  "as upstream does",
        # Before CVE-2019-20907's row: on 2.7 its copy holds bpo-39017's check too.
        holds=["CVE-2019-20907"],
        replaces=["tarfile.TarInfo._proc_pax"], fix="tarfile_backport._records",
        module="tarfile", variable="TARFILE_BACKPORT_PATCH",
        options=[("force", {"force": True})]),
    Fix(package="tarfile_backport", cve="CVE-2019-20907", issue="bpo-39017",
        summary="pax header records of length 0 read again for ever (reader hang)",
        exposed="a tar archive with a pax record of length 0 keeps this process reading it",
        unfixed="reads a pax record of length 0 again and again",
        replaces=["tarfile.TarInfo._proc_pax"], fix="tarfile_backport._pax",
        module="tarfile", variable="TARFILE_BACKPORT_PATCH",
        options=[("force", {"force": True})]),
    Fix(package="zipfile_backport", cve="CVE-2024-0450", issue="gh-109858",
        summary="zip members whose data overlap the next member read ('quoted-overlap' "
                "zip bomb)",
        exposed="a small zip archive of overlapping members expands to gigabytes in this "
                "process",
        unfixed="reads a member's data into the next member's header or the central "
                "directory",
        behaviour="opening a member whose data run into the next member or the central "
                  "directory raises BadZipFile('Overlapped entries: ...'), as upstream does",
        replaces=["zipfile.ZipFile.open"], fix="zipfile_backport._overlap", module="zipfile",
        variable="ZIPFILE_BACKPORT_PATCH", options=[("force", {"force": True})]),
    Fix(package="zipfile_backport", cve="CVE-2024-8088", issue="gh-122905",
        summary="zipfile.Path walks a member named with leading slashes for ever "
                "(reader hang)",
        exposed="a zip member named '//a' keeps zipfile.Path in this process looping",
        unfixed="zipfile.Path's walk up a name of slashes never ends",
        # 2.7-3.7 have no zipfile.Path (nothing to fix there).
        replaces=_ZIP_ANCESTRY, fix="zipfile_backport._ancestry", module="zipfile",
        variable="ZIPFILE_BACKPORT_PATCH", options=[("force", {"force": True})]),
    Fix(package="zipfile_backport", cve="CVE-2025-8291", issue="gh-139700",
        summary="zip64 end records read without their locator's offset "
                "(parser differential)",
        exposed="a zip64 archive may list other members to this process than to other "
                "readers",
        unfixed="takes the 56 bytes before the zip64 locator for the zip64 end record, "
                "whatever offset the locator gives",
        behaviour="a zip64 archive whose end records disagree raises BadZipFile "
                  "(is_zipfile() answers False), as upstream does",
        replaces=["zipfile._EndRecData64", "zipfile.is_zipfile"],
        fix="zipfile_backport._zip64", module="zipfile",
        variable="ZIPFILE_BACKPORT_PATCH", options=[("force", {"force": True})]),
    Fix(package="tempfile_backport", cve="CVE-2023-6597", issue="gh-91133",
        summary="TemporaryDirectory cleanup changing the mode of a symlink's target",
        exposed="a symlink in a temporary directory has its target's mode set to 0o700 "
                "when the cleanup fails on it",
        unfixed="resets modes during cleanup with os.chmod, which follows symlinks",
        replaces=["tempfile.TemporaryDirectory._rmtree"], fix="tempfile_backport._symlinks",
        module="tempfile", variable="TEMPFILE_BACKPORT_PATCH",
        options=[("force", {"force": True})]),
    Fix(package="idna_backport", cve="CVE-2022-45061", issue="gh-98433",
        summary="IDNA decoding quadratic in a label of right-to-left characters "
                "(CPU exhaustion)",
        exposed="a long 'xn--' label in a host name costs this process seconds of CPU",
        unfixed="decodes labels of any length (2.7, 3.6: quadratic in right-to-left letters)",
        behaviour="the idna codec refuses a label longer than 1024 characters (UnicodeError), "
                  "as 3.12 does",
        replaces=["encodings.idna.ToUnicode", "encodings.idna.nameprep"],
        summary_of=lambda module, bound: __import__(
            "idna_backport._idna", None, None, ("summary",)).summary(module, bound),
        fix="idna_backport._idna", module="encodings.idna",
        variable="IDNA_BACKPORT_PATCH", options=[("force", {"force": True})]),
    Fix(package="ipaddress_backport", cve="gh-128840", issue="gh-128840",
        summary="IPv6 address strings split in full before their length is checked "
                "(memory exhaustion)",
        exposed="a 12 MB IPv6 address string costs this process hundreds of megabytes",
        unfixed="splits an IPv6 address string of any length on every ':'",
        behaviour="an IPv6 address string longer than 45 characters is refused "
                  "(AddressValueError), as upstream refuses it",
        # 2.7 ships no ipaddress: nothing to fix there.
        replaces=[] if _PY2 else ["ipaddress._BaseV6._ip_int_from_string"],
        fix="ipaddress_backport._ipv6", module="ipaddress",
        variable="IPADDRESS_BACKPORT_PATCH", options=[("force", {"force": True})]),
)


def keep_off(fix):
    """The ids ``CPYTHON_SECURITY_SKIP`` must name to keep *fix* off: its own, and those
    of the other fixes of its package that replace a name it replaces (2.7's
    ``HTTPResponse.begin`` of gh-150743 bounds CVE-2021-3737's headers too), but for
    those whose check its replacement holds (``holds``): theirs do not hold its own."""
    names = set(fix.replaces)
    return [each.cve for each in fixes_of(fix.package) if each is fix or (
        names.intersection(each.replaces) and each.cve not in fix.holds)]


def variable_of(package):
    """The variable of *package*'s own start-up switch."""
    return BY_PACKAGE[package].variable


def fixes_of(package):
    """The rows of *package*, in registry order."""
    return [fix for fix in FIXES if fix.package == package]


#: The packages, in the order of their first fix.
PACKAGES = tuple(fix.package for index, fix in enumerate(FIXES)
                 if fix.package not in [earlier.package for earlier in FIXES[:index]])

#: ``{package: its first fix}``: what a package's fixes share (switch, start-up module).
BY_PACKAGE = dict((package, fixes_of(package)[0]) for package in PACKAGES)
