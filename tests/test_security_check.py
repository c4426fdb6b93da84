"""``cpython-security-check``: the console script that runs every fix's self-check."""

import json
import os
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run, run_json
from internals import BY_PACKAGE, PACKAGES, shared_registry

SCRIPT = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")


def check(*args, **env):
    """Run the installed console script with this environment's interpreter."""
    return run([SCRIPT] + list(args), **env)


def test_installed_with_the_wheel():
    assert os.path.isfile(SCRIPT)


def test_json_holds_every_status_document():
    rc, out, err = check("--json")
    document = json.loads(out)
    from internals import BY_PACKAGE, PACKAGES
    assert sorted(document) == sorted(PACKAGES + ("exposed",))
    for package in PACKAGES:  # each package's first fix: its own status() names it
        assert document[package]["cve"] == BY_PACKAGE[package].cve
    assert document["exposed"] is any(
        info["exposed"] for name, info in document.items() if name != "exposed")
    assert rc == (1 if document["exposed"] else 0)


def framework_checks(**env):
    """The framework checks a fix breaks, as ``--json`` reports them with *env*:
    ``[(package, entry)]`` of installed frameworks."""
    rc, out, err = check("--json", **env)
    document = json.loads(out)
    return [(package, entry) for package in PACKAGES
            for entry in document[package].get("framework_checks", ()) if entry["installed"]]


def test_one_line_per_registry_entry():
    rc, out, err = check()
    lines = out.splitlines()
    rows = [line for line in lines if not line.startswith("  ")]
    assert [line.split(":")[0] for line in rows[:len(shared_registry.FIXES)]] == [
        fix.cve for fix in shared_registry.FIXES]
    assert [line.split(":")[0] for line in rows[len(shared_registry.FIXES):-1]] == [
        "hint"] * (len(rows) - len(shared_registry.FIXES) - 1)
    assert lines[-1].startswith("verdict: ")
    # Under a row, indented: each framework check its fix breaks (installed ones).
    under, row = {}, None
    for line in lines[:lines.index(rows[len(shared_registry.FIXES) - 1]) + 1]:
        if line.startswith("  "):
            under.setdefault(row, []).append(line.split(":")[0].strip())
        else:
            row = line.split(":")[0]
    assert under == dict((entry["after"], [entry["cve"]]) for _, entry in framework_checks())


STOCK_VALIDATOR = """
import json
from django.core.validators import URLValidator, ValidationError
try:
    URLValidator()("http://www.djangoproject.com/\\n")
except ValidationError:
    print(json.dumps("refuses"))
else:
    print(json.dumps("accepts"))
"""


def django_check_line(**env):
    """The line under CVE-2022-0391's row, and the verdict line."""
    rc, out, err = check(**env)
    lines = out.splitlines()
    row = [line for line in lines if line.startswith("CVE-2022-0391:")][0]
    return lines[lines.index(row) + 1], lines[-1]


def test_a_framework_check_a_fix_breaks_has_its_line_and_verdict():
    # Django's URLValidator (CVE-2021-32052) under CVE-2022-0391's row: exposed where
    # this interpreter's own urlsplit removes tab, CR and LF and Django lacks its fix
    # (3.8 and Django 3.1.6), safe once the umbrella applies Django's fix.
    importorskip("django.core.validators")
    exposed = run_json(STOCK_VALIDATOR) == "accepts"
    line, verdict = django_check_line()
    assert line.split()[:2] == ["CVE-2021-32052:", "EXPOSED" if exposed else "safe"]
    assert line.endswith("(Django #32713, after CVE-2022-0391, urllib_parse_backport)")
    assert ("CVE-2021-32052" in verdict) is exposed
    line, verdict = django_check_line(CPYTHON_SECURITY_PATCH="1")
    assert line.split()[:2] == ["CVE-2021-32052:", "safe"]


def test_bare_process_is_exposed():
    # Twisted Web's own parser splits on ';' in every pinned release; on 2.7
    # the stdlib and ctypes are unfixed too.
    importorskip("twisted.web.http")
    rc, out, err = check()
    assert rc == 1, err
    lines = out.splitlines()
    verdicts = dict((line.split()[0], line.split()[1]) for line in lines
                    if line.startswith("CVE-"))
    assert verdicts["CVE-2021-23336:"] == "EXPOSED"
    assert verdicts["CVE-2021-3177:"] == ("EXPOSED" if sys.version_info[0] == 2 else "safe")
    # Every interpreter of the matrix lacks CVE-2025-0938's fix (3.12.9, 3.13.2).
    assert verdicts["CVE-2025-0938:"] == "EXPOSED"
    assert [line.split()[0] for line in lines if line.startswith(("CVE-", "gh-"))] == [
        fix.cve + ":" for fix in shared_registry.FIXES]
    assert lines[-1].startswith("verdict: EXPOSED: CVE-2021-23336, ")
    assert "hint: set CPYTHON_SECURITY_PATCH=1 to apply every fix at start-up" in lines
    assert "per-package" not in out


def without_copies(tmpdir):
    """A ``PYTHONPATH`` on which python-future does not import: the check then reads the
    stdlib alone (tests/test_stdlib_copies.py has what it says of the copies)."""
    tmpdir.join("future").ensure(dir=True).join("__init__.py").write(
        "raise ImportError('python-future hidden from this check')\n")
    return str(tmpdir)


def test_every_switch_makes_the_process_safe(tmpdir):
    rc, out, err = check(PYTHONPATH=without_copies(tmpdir),
                         **dict((BY_PACKAGE[package].variable, BY_PACKAGE[package].umbrella)
                                for package in PACKAGES))
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "verdict: safe"


@pytest.mark.parametrize("args", [["--bogus"], ["extra"]])
def test_usage_error(args):
    rc, out, err = check(*args)
    assert rc == 2
    assert err.startswith("usage: cpython-security-check")


def test_the_hint_names_the_variable_that_keeps_the_framework_adapters_off(tmpdir):
    importorskip("twisted.web.http")  # its own parser splits on ';' in every pinned release
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", URLLIB_PARSE_BACKPORT_PATCH="1",
                         PYTHONPATH=without_copies(tmpdir))
    assert rc == 1
    assert ("hint: URLLIB_PARSE_BACKPORT_PATCH=1 leaves out what =frameworks adds: set "
            "URLLIB_PARSE_BACKPORT_PATCH=frameworks, or unset it (CPYTHON_SECURITY_PATCH=1 "
            "applies both)") in out.splitlines()
    # With =1 a Django without its own CVE-2021-32052 fix accepts a newline once
    # urlsplit removes it; =frameworks adds Django's fix too.
    broken = [entry["cve"] for _, entry in framework_checks(
        CPYTHON_SECURITY_PATCH="1", URLLIB_PARSE_BACKPORT_PATCH="1") if entry["exposed"]]
    assert out.splitlines()[-1] == "verdict: EXPOSED: " + ", ".join(["CVE-2021-23336"] + broken)


def test_the_hint_names_what_the_skip_list_leaves_out():
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="CVE-2025-0938")
    assert rc == 1  # every interpreter of the matrix lacks CVE-2025-0938's fix
    assert ("hint: CPYTHON_SECURITY_SKIP=CVE-2025-0938 leaves CVE-2025-0938 out: unset "
            "CPYTHON_SECURITY_SKIP to apply them") in out.splitlines()


def test_the_umbrella_alone_makes_the_process_safe(tmpdir):
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", PYTHONPATH=without_copies(tmpdir))
    assert (rc, out.splitlines()[-1]) == (0, "verdict: safe"), out + err


MISSING, BROKEN = "wsgiref_backport", "idna_backport"
#: The interpreter this environment was made from: with -S, its stdlib and the partial
#: copy are all it imports (a 2.7 virtualenv finds its stdlib only through site).
BASE = os.path.join(getattr(sys, "real_prefix", getattr(sys, "base_prefix", sys.prefix)), "bin",
                    os.path.basename(os.path.realpath(sys.executable)))
#: The partial copy first on sys.path; its start-up file run as ``site`` runs a line
#: starting with "import".
SITE = "import os, sys; sys.path.insert(0, sys.argv[1]); " \
    "exec(open(os.path.join(sys.argv[1], 'cpython_security_patch.pth')).read())\n"
CHECK = SITE + "from _cpython_security._check import main; sys.exit(main(sys.argv[2:]))"


@pytest.fixture
def partial_install(tmp_path):
    """A site directory with the installed packages and start-up file, but *MISSING*
    deleted and *BROKEN* raising at import (a half-finished upgrade, a bad disk)."""
    import shutil
    import _cpython_security
    site = os.path.dirname(os.path.dirname(os.path.abspath(_cpython_security.__file__)))
    target = str(tmp_path)
    for name in ("_cpython_security",) + tuple(PACKAGES):
        if name != MISSING:
            shutil.copytree(os.path.join(site, name), os.path.join(target, name))
    shutil.copy(os.path.join(site, "cpython_security_patch.pth"), target)
    init = os.path.join(target, BROKEN, "__init__.py")
    with open(init) as stream:
        text = stream.read()
    with open(init, "w") as stream:
        stream.write("raise RuntimeError('damaged on purpose')\n" + text)
    return target


def test_a_partial_install_is_a_verdict_naming_what_it_cannot_prove(partial_install):
    rc, out, err = run(["-S", "-c", CHECK, partial_install, "--json"], executable=BASE)
    assert (rc, err) == (1, "")
    document = json.loads(out)
    assert document["exposed"] is True
    for package in (MISSING, BROKEN):
        assert (document[package]["state"], document[package]["exposed"]) == ("broken", True)
    rc, out, err = run(["-S", "-c", CHECK, partial_install], executable=BASE)
    assert (rc, err) == (1, "")
    lines = out.splitlines()
    exposed = lines[-1].split("verdict: EXPOSED: ")[1].split(", ")
    for package in (MISSING, BROKEN):
        cves = [fix.cve for fix in shared_registry.fixes_of(package)]
        assert set(cves) <= set(exposed)
        assert len([line for line in lines if line.startswith("hint: " + package) and
                    "pip install --force-reinstall cpython-security-backports" in line]) == 1


def test_the_start_up_switch_names_a_package_it_cannot_import_and_goes_on(partial_install):
    modules = sorted(set(name for package in (MISSING, BROKEN)
                         for fix in shared_registry.fixes_of(package) for name in fix.probes))
    code = SITE + "for name in %r:\n    __import__(name)\nprint('went on')" % (modules,)
    rc, out, err = run(["-S", "-c", code, partial_install], executable=BASE,
                       **dict((BY_PACKAGE[package].variable, "force")
                              for package in (MISSING, BROKEN)))
    assert (rc, out) == (0, "went on\n")
    lines = err.splitlines()
    assert sorted(line.split(":")[0] for line in lines) == sorted([MISSING, BROKEN]), err
    assert all("pip install --force-reinstall cpython-security-backports" in line
               for line in lines), err
