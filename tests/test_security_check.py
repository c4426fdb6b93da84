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
    assert out.splitlines()[-1] == "verdict: EXPOSED: CVE-2021-23336"


def test_the_hint_names_what_the_skip_list_leaves_out():
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="CVE-2025-0938")
    assert rc == 1  # every interpreter of the matrix lacks CVE-2025-0938's fix
    assert ("hint: CPYTHON_SECURITY_SKIP=CVE-2025-0938 leaves CVE-2025-0938 out: unset "
            "CPYTHON_SECURITY_SKIP to apply them") in out.splitlines()


def test_the_umbrella_alone_makes_the_process_safe(tmpdir):
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", PYTHONPATH=without_copies(tmpdir))
    assert (rc, out.splitlines()[-1]) == (0, "verdict: safe"), out + err
