"""What the check, ``status()``, ``unpatch()`` and the switch say of python-future's copies.

A copy is reported by name: EXPOSED while it lacks a fix and is not patched
(not imported: nothing to say), including where a fix module does not fit
its code (3.3's ``HTMLParser``, its ``urlsplit``); ``unpatch()`` puts its own
code back; the start-up switch patches a copy when the application imports
it, and ``patch()`` one imported after it. tests/test_stdlib_copies.py: the
fixes themselves, on the copies.
"""

import os
import sys

import email_backport
import html_parser_backport
import http_client_backport
import http_cookies_backport
import urllib_parse_backport
import urllib_request_backport
from fresh_interpreter import run, run_code, run_json
from internals import shared_check
from stdlib_copies import (CLIENT_COPY, COOKIES_COPY, REQUEST_COPY, copy_of,  # noqa: F401
                           copies_forgotten, unpatched)

CHECK = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")


# -- a fix the copy's code does not fit ---------------------------------------------------

def parsed(module):
    found = []

    class Parser(module.HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, attrs))

        def handle_data(self, data):
            found.append(data)
    parser = Parser()
    for piece in ('<a href="x">t', "ext</a><!-- c", "omment --><b"):
        parser.feed(piece)
    parser.close()
    return found


def test_a_copy_a_fix_does_not_fit_is_left_as_it_is_and_reported_exposed():
    # Both html.parser fixes rewrite 3.4+'s loop (convert_charrefs); the copy is 3.3's.
    copy = copy_of("future.backports.html.parser")
    before, own = parsed(copy), dict(copy.HTMLParser.__dict__)
    report = html_parser_backport.patch()
    assert (parsed(copy), dict(copy.HTMLParser.__dict__)) == (before, own)
    skipped = report.as_dict()["skipped"]
    assert [entry["kind"] for entry in skipped if entry["target"] == copy.__name__] == [
        "failure", "failure"]
    for cve in ("CVE-2025-6069", "CVE-2026-15308"):
        entry = html_parser_backport.status()["fixes"][cve]["copies"][copy.__name__]
        assert entry["exposed"] and entry["state"].startswith("not patched: ")


def test_the_email_copy_gets_the_parameter_fix_in_its_own_shape():
    # 2.7: python-future's _parseparam is 3.x's (it makes the value text itself).
    copy = copy_of("future.backports.email.message")
    message = copy.Message()
    message["Content-Type"] = 'text/plain; charset="utf-8"; name="a;b"; x'
    before = message.get_params()
    report = email_backport.patch()
    assert copy.__name__ + "._parseparam" in report.changed
    assert message.get_params() == before


def test_the_urllib_parse_copy_is_exposed_by_its_urlsplit_only():
    # The shim rewrites the copy's parse_qsl (CVE-2021-23336); no patch() replaces a
    # copy's urlsplit, which lacks the four later fixes.
    copy = copy_of("future.backports.urllib.parse")
    urllib_parse_backport.patch()
    try:
        fixes = urllib_parse_backport.status()["fixes"]
    finally:
        urllib_parse_backport.unpatch()
    assert fixes["CVE-2021-23336"]["copies"][copy.__name__]["exposed"] is False
    for cve in ("CVE-2023-24329", "CVE-2022-0391", "CVE-2024-11168", "CVE-2025-0938"):
        entry = fixes[cve]["copies"][copy.__name__]
        assert entry["exposed"] and entry["state"].startswith("not patched: ")
        assert fixes[cve]["exposed"]


# -- the check and unpatch() ------------------------------------------------------------

def _joined(text):
    """The check's ``--verbose`` lines, each with the lines it wraps onto joined."""
    lines = []
    for line in text.splitlines():
        if line.startswith("   ") and lines:
            lines[-1] += " " + line.strip()
        else:
            lines.append(line)
    return lines


def _check_line(cve):
    check = shared_check()
    lines = _joined(check.render(check.collect(), verbose=True))
    return [line for line in lines if line.startswith(cve + ":")][0]


def test_the_check_names_an_imported_copy_that_is_not_patched():
    copy_of(COOKIES_COPY)
    line = _check_line("CVE-2026-0672")
    assert line.split()[1] == "EXPOSED"
    assert line.endswith("; exposed copy: %s)" % COOKIES_COPY)
    http_cookies_backport.patch()
    assert "exposed copy" not in _check_line("CVE-2026-0672")


def test_status_lists_the_copy_under_its_fix():
    copy_of(CLIENT_COPY)
    entry = http_client_backport.status()["fixes"]["CVE-2020-26116"]
    assert entry["copies"][CLIENT_COPY] == {"lacks": True, "exposed": True,
                                            "state": "not patched"}
    assert http_client_backport.status()["exposed"]
    http_client_backport.patch()
    entry = http_client_backport.status()["fixes"]["CVE-2020-26116"]
    assert entry["copies"][CLIENT_COPY] == {"lacks": True, "exposed": False,
                                            "state": "patched"}


def test_unpatch_restores_the_copies_by_identity():
    places = [(copy_of(COOKIES_COPY).Morsel, "__setitem__"),
              (copy_of(CLIENT_COPY).HTTPConnection, "putrequest"),
              (copy_of(REQUEST_COPY).AbstractBasicAuthHandler, "http_error_auth_reqed")]
    before = [cls.__dict__[name] for cls, name in places]
    three = (http_cookies_backport, http_client_backport, urllib_request_backport)
    for package in three:
        report = package.patch()
        assert [name for name in report.changed if name.startswith("future.backports.")]
    assert [cls.__dict__[name] for cls, name in places] != before
    for package in three:
        package.unpatch()
    assert all(cls.__dict__[name] is old for (cls, name), old in zip(places, before))


# -- the start-up switch, in fresh interpreters ------------------------------------------

#: Each copy's hostile call, in a process of its own: "refused", "accepted" or "no copy".
APP = """
import json
found = {}
try:
    from future.backports.http import cookies
except Exception:
    found["cookies"] = "no copy"
else:
    try:
        cookies.Morsel()["path"] = "/\\r\\nX-Injected: 1"
        found["cookies"] = "accepted"
    except cookies.CookieError:
        found["cookies"] = "refused"
try:
    from future.backports.http import client
except Exception:
    found["client"] = "no copy"
else:
    try:
        client.HTTPConnection("example.com").putrequest("GET\\r\\nX: 1", "/", skip_host=True)
        found["client"] = "accepted"
    except ValueError:
        found["client"] = "refused"
print(json.dumps(found))
"""

CVES = {"cookies": "CVE-2026-0672", "client": "CVE-2020-26116", "request": "CVE-2020-8492"}
NAMES = {"cookies": COOKIES_COPY, "client": CLIENT_COPY, "request": REQUEST_COPY}


def _importable(name):
    code, out, err = run_code("import %s" % name)
    return code == 0


def test_the_switch_patches_each_copy_when_the_application_imports_it():
    found = run_json(APP, CPYTHON_SECURITY_PATCH="1", quiet=True)
    bare = run_json(APP, quiet=True)
    for copy in ("cookies", "client"):
        if _importable(NAMES[copy]):
            assert (bare[copy], found[copy]) == ("accepted", "refused")
        else:
            assert found[copy] == "no copy"


#: ``patch()`` first, the copy imported after: the engine's hook patches it then.
LATER = """
import json, sys
import http_cookies_backport
http_cookies_backport.patch()
before = "future.backports.http.cookies" in sys.modules
try:
    from future.backports.http import cookies
except Exception:
    print(json.dumps([before, "no copy"]))
    raise SystemExit
def stores():
    try:
        cookies.Morsel()["path"] = "/\\r\\nX-Injected: 1"
        return "accepted"
    except cookies.CookieError:
        return "refused"
patched = stores()
http_cookies_backport.unpatch()
print(json.dumps([before, patched, stores()]))
"""


def test_a_copy_imported_after_patch_is_patched_then_and_unpatch_restores_it():
    found = run_json(LATER, quiet=True)
    if _importable(COOKIES_COPY):
        assert found == [False, "refused", "accepted"]
    else:
        assert found == [False, "no copy"]


def _verdicts(**environ):
    code, out, err = run([CHECK, "--verbose"], **environ)
    return dict((line.split(":")[0], line) for line in _joined(out)
                if line.startswith(tuple(CVES.values())))


def test_the_check_names_each_copy_the_switch_leaves_exposed():
    bare, switched = _verdicts(), _verdicts(CPYTHON_SECURITY_PATCH="1")
    for copy, cve in sorted(CVES.items()):
        assert switched[cve].split()[1] == "safe", switched[cve]
        if _importable(NAMES[copy]):
            assert bare[cve].split()[1] == "EXPOSED"
            assert bare[cve].endswith("; exposed copy: %s)" % NAMES[copy])
