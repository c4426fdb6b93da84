"""``--audit`` lists the copies of stdlib modules the fixes' registry knows.

python-future's ``future.backports`` (``http.cookies``, ``http.client``,
``urllib.request``, ``email``, ``html.parser``) keeps the CVEs of 3.3's code;
the engine fixes each at run time once imported under its own name. The audit
finds each by its path, one finding per fix the registry applies to it, at the
definition the fix replaces, saying which ``patch()`` applies it; a copy
vendored under another name is listed with nothing that fixes it.
"""

import os
import shutil

import pytest

from internals import shared_registry
from test_audit import audit, installed

#: ``{copy: [rows]}``: the copies a fix module of the registry applies to.
COPIES = {}
for _fix in shared_registry.FIXES:
    for _name in _fix.copies if _fix.fix is not None else ():
        COPIES.setdefault(_name, []).append(_fix)


def path_of(copy):
    path = installed(copy.replace(".", "/") + ".py")
    assert path is not None, copy  # future==1.0.0 is in every test environment
    return path


@pytest.mark.parametrize("copy", sorted(COPIES))
def test_each_installed_copy_is_listed_with_the_patch_that_fixes_it(copy):
    status, findings, err = audit(path_of(copy))
    assert status == 1
    assert sorted(finding["cve"] for finding in findings) == sorted(
        fix.cve for fix in COPIES[copy])
    for finding in findings:
        fix = [row for row in COPIES[copy] if row.cve == finding["cve"]][0]
        assert finding["issue"] == fix.issue
        assert finding["fixed_by"] == "%s.patch()" % fix.package
        assert finding["parser"].startswith(copy + ".") or finding["parser"] == copy
        assert finding["distribution"] == "future" and finding["version"] == "1.0.0"


def test_the_cookie_copy_is_listed_at_the_class_each_fix_replaces():
    path = path_of("future.backports.http.cookies")
    status, findings, err = audit(path)
    found = dict((finding["cve"], finding) for finding in findings)
    assert found["CVE-2026-0672"]["parser"] == "future.backports.http.cookies.Morsel"
    assert found["CVE-2026-0672"]["code"].startswith("class Morsel(")
    assert found["CVE-2024-7592"]["parser"] == "future.backports.http.cookies._unquote"


def test_a_copy_vendored_under_another_name_is_listed_with_no_fix(tmpdir):
    source = path_of("future.backports.http.client")
    directory = tmpdir
    for part in ("myapp", "_vendor", "future", "backports", "http"):
        directory = directory.mkdir(part)
        directory.join("__init__.py").write("")
    shutil.copy(source, str(directory.join("client.py")))
    status, findings, err = audit(str(tmpdir))
    assert status == 1
    assert sorted(finding["cve"] for finding in findings) == sorted(
        fix.cve for fix in COPIES["future.backports.http.client"])
    assert set(finding["fixed_by"] for finding in findings) == set([None])
    assert all(finding["parser"].startswith("myapp._vendor.future.backports.http.client.")
               for finding in findings)
    assert all(finding["path"] == os.path.join(str(directory), "client.py")
               for finding in findings)


def test_the_report_counts_the_fixes_for_copies():
    path = path_of("future.backports.urllib.request")
    status, findings, err = audit(path)
    from test_audit import run
    status, out, err = run(path)
    assert out.splitlines()[0].startswith(
        "%d fixes for copies of stdlib modules, in 1 file (" % len(findings))
    assert "fixed at run time by urllib_request_backport.patch()" in out
