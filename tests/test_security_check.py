"""``cpython-security-check``: the console script that runs every fix's self-check."""

import json
import os
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run
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


def test_one_line_per_registry_entry():
    rc, out, err = check()
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:len(shared_registry.FIXES)]] == [
        fix.cve for fix in shared_registry.FIXES]
    assert [line.split(":")[0] for line in lines[len(shared_registry.FIXES):-1]] == [
        "hint"] * (len(lines) - len(shared_registry.FIXES) - 1)
    assert lines[-1].startswith("verdict: ")


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


def test_every_switch_makes_the_process_safe():
    rc, out, err = check(**dict((BY_PACKAGE[package].variable, BY_PACKAGE[package].umbrella)
                                for package in PACKAGES))
    assert rc == 0, out + err
    assert out.splitlines()[-1] == "verdict: safe"


@pytest.mark.parametrize("args", [["--bogus"], ["extra"]])
def test_usage_error(args):
    rc, out, err = check(*args)
    assert rc == 2
    assert err.startswith("usage: cpython-security-check")


def test_the_hint_names_the_variable_that_keeps_the_framework_adapters_off():
    importorskip("twisted.web.http")  # its own parser splits on ';' in every pinned release
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", URLLIB_PARSE_BACKPORT_PATCH="1")
    assert rc == 1
    assert ("hint: URLLIB_PARSE_BACKPORT_PATCH=1 leaves out what =frameworks adds: set "
            "URLLIB_PARSE_BACKPORT_PATCH=frameworks, or unset it (CPYTHON_SECURITY_PATCH=1 "
            "applies both)") in out.splitlines()
    assert out.splitlines()[-1] == "verdict: EXPOSED: CVE-2021-23336"


def test_the_hint_names_what_the_skip_list_leaves_out():
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="CVE-2025-0938")
    assert rc == 1  # every interpreter of the matrix lacks CVE-2025-0938's fix
    assert ("hint: CPYTHON_SECURITY_SKIP=CVE-2025-0938 leaves CVE-2025-0938 out: unset "
            "CPYTHON_SECURITY_SKIP to apply them") in out.splitlines()


def test_the_skip_list_leaves_out_a_fix_named_by_its_upstream_issue():
    # A fix with no CVE is named as the registry writes it (gh-...): the skip
    # list must leave it out as it does a CVE, whatever the case it is written in.
    rc, out, err = check("--json", CPYTHON_SECURITY_PATCH="1")
    lacking = [fix.cve for fix in shared_registry.FIXES if fix.cve.startswith("gh-")
               and json.loads(out)[fix.package]["fixes"][fix.cve]["lacks"]]
    if not lacking:
        pytest.skip("this interpreter carries every fix named by an upstream issue")
    for name in (lacking[0], lacking[0].upper()):
        rc, out, err = check(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP=name)
        assert (rc, out.splitlines()[-1]) == (1, "verdict: EXPOSED: " + lacking[0]), out + err


def test_the_umbrella_alone_makes_the_process_safe():
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1")
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
