"""``python -m urllib_parse_backport --audit`` on real installed code: the frameworks'
own parsers that split on ';' (tests/requirements/frameworks.txt, audit.txt), each
found, named with its distribution and with what fixes it at run time. They are
located by reading their files, never by line numbers.
"""

import os
import sys

import pytest

from test_audit import (ADAPTER, PY2, SHIM, STDLIB_SHIM, audit, audit_once, installed,
                        lines_in, version_of)


def findings_in(path):  # the query parsers; test_audit_urlsplit: the urlsplit copies
    status, findings, err = audit(path)
    assert err == ""
    return [finding for finding in findings if finding["cve"] == "CVE-2021-23336"]


def assert_found(path, parser, lines, fixed_by, distribution):
    findings = findings_in(path)
    assert set(finding["line"] for finding in findings) == lines
    for finding in findings:
        assert finding["parser"] == parser
        assert finding["fixed_by"] == fixed_by
        assert (finding["distribution"] or "").lower() == distribution.lower()
        assert finding["version"] == version_of(distribution)
        assert finding["text_match"] is False


def test_django():
    version = version_of("Django")
    path = installed("django/utils/http.py")
    # frameworks.txt: 1.11.29 (splits on [&;]) before 3.8, fixed releases after.
    assert version.startswith("1.11.") is (sys.version_info < (3, 8))
    if version.startswith("1.11."):
        assert_found(path, "django.utils.http.limited_parse_qsl",
                     lines_in(path, "limited_parse_qsl", "FIELDS_MATCH.split("), ADAPTER,
                     "Django")
    else:
        assert findings_in(os.path.dirname(os.path.dirname(path))) == []


def test_cherrypy():
    # 17.4.2 on 2.7, 18.10.0 on 3.x: both split on ';'.
    assert version_of("CherryPy") == ("17.4.2" if PY2 else "18.10.0")
    path = installed("cherrypy/lib/httputil.py")
    assert_found(path, "cherrypy.lib.httputil._parse_qs",
                 lines_in(path, "_parse_qs", "s1.split(';')"), ADAPTER, "CherryPy")
    path = installed("cherrypy/_cpreqbody.py")
    assert_found(path, "cherrypy._cpreqbody.process_urlencoded",
                 lines_in(path, "process_urlencoded", "split(b';')"), ADAPTER, "CherryPy")


def test_twisted():
    if PY2:
        assert version_of("Twisted") == "20.3.0"
    path = installed("twisted/web/http.py")
    assert_found(path, "twisted.web.http.parse_qs",
                 lines_in(path, "parse_qs", 's1.split(b";")'), ADAPTER, "Twisted")


def test_python_future_backport():
    path = installed("future/backports/urllib/parse.py")
    assert_found(path, "future.backports.urllib.parse.parse_qsl",
                 lines_in(path, "parse_qsl", "s1.split(';')"), SHIM, "future")


def test_webob():
    path = installed("webob/compat.py")
    assert_found(path, "webob.compat.parse_qsl_text",
                 lines_in(path, "parse_qsl_text", "s1.split(b';')"), ADAPTER, "WebOb")


def test_bottle():
    version, path = version_of("bottle"), installed("bottle.py")
    assert (version == "0.12.18") is (sys.version_info < (3, 11))
    if version == "0.12.18":
        assert_found(path, "bottle._parse_qsl", lines_in(path, "_parse_qsl", "replace(';'"),
                     ADAPTER, "bottle")
    else:
        assert findings_in(path) == []


@pytest.mark.parametrize("package", ["werkzeug", "falcon"])
def test_fixed_frameworks_are_not_flagged(package):
    if sys.version_info < (3, 13):
        pytest.skip("tests/requirements/audit.txt installs %s on 3.13 only" % package)
    path = installed(package + "/__init__.py")
    assert path, "%s is not installed" % package
    assert findings_in(os.path.dirname(path)) == []


def test_stdlib():
    directory = os.path.dirname(os.__file__)
    if PY2:
        path = os.path.join(directory, "urlparse.py")
        assert_stdlib = lines_in(path, "parse_qsl", "s1.split(';')")
        findings = findings_in(path)
        assert [(f["line"], f["parser"], f["fixed_by"]) for f in findings] == \
            [(line, "urlparse.parse_qsl", STDLIB_SHIM) for line in sorted(assert_stdlib)]
    else:  # every 3.x interpreter here has the bpo-42967 fix
        assert findings_in(os.path.join(directory, "urllib", "parse.py")) == []


def test_whole_environment_holds_just_the_known_parsers():
    site_packages = os.path.dirname(os.path.dirname(installed("cherrypy/__init__.py")))
    status, findings, err = audit_once(site_packages)
    findings = [f for f in findings if f["cve"] == "CVE-2021-23336"]  # test_audit_urlsplit
    expected = set(["cherrypy.lib.httputil._parse_qs", "cherrypy._cpreqbody.process_urlencoded",
                    "twisted.web.http.parse_qs", "future.backports.urllib.parse.parse_qsl",
                    "webob.compat.parse_qsl_text"])
    if version_of("Django").startswith("1.11."):
        expected.add("django.utils.http.limited_parse_qsl")
    if version_of("bottle") == "0.12.18":
        expected.add("bottle._parse_qsl")
    # python-multipart (asgi.txt, audit.txt on 3.6+): the package is
    # python_multipart from 0.0.13, multipart before (the newer one's multipart
    # only re-exports it); its scanning parser is fixed by its adapter.
    scanners = set(["python_multipart.multipart.QuerystringParser._internal_write",
                    "multipart.multipart.QuerystringParser._internal_write"])
    # uri-template (jsonschema[format], which the VEX tests' CycloneDX validator needs):
    # RFC 6570's path-style expansion joins and splits on ';' by design. The audit lists
    # it; no query string reaches it, so no adapter fixes it.
    unfixed = set()
    if version_of("uri_template"):
        unfixed.add("uri_template.expansions.ExpressionExpansion.__init__")
    found = set(finding["parser"] for finding in findings)
    assert found - scanners - unfixed == expected
    assert bool(found & scanners) == _python_multipart_installed()
    assert [finding["parser"] for finding in findings
            if not finding["fixed_by"] and finding["parser"] not in unfixed] == []
    assert status == 1


def _python_multipart_installed():
    for name in ("python_multipart.multipart", "multipart.multipart"):
        try:
            module = __import__(name, None, None, ["QuerystringParser"])
        except ImportError:
            continue
        if hasattr(module, "QuerystringParser"):
            return True
    return False
