"""``cpython-security-check``: the console script that runs every fix's self-check."""

import json
import os
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run, run_json, run_once, without_future
from internals import BY_PACKAGE, PACKAGES, idna_fix, shared_registry

SCRIPT = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")


def check(*args, **env):
    """Run the installed console script with this environment's interpreter, python-future
    hidden unless *env* sets ``PYTHONPATH`` (its copies: tests/test_stdlib_copies*)."""
    env.setdefault("PYTHONPATH", without_future())
    return run_once([SCRIPT] + list(args), **env)


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


def every_fix(out):
    """``{fix: "EXPOSED" or "safe"}`` from ``--verbose``'s line per fix, in its order."""
    lines = out.splitlines()
    listed = [line for line in lines[lines.index("every fix:") + 1:]
              if not line.startswith(" ")]
    return [(line.split()[0].rstrip(":"), line.split()[1]) for line in listed]


def exposed_by_module(out):
    """``{module: [fix, ...]}`` from the lines under "exposed, by module:"."""
    lines = out.splitlines()
    found, module = {}, None
    for line in lines[lines.index("exposed, by module:") + 1:]:
        if not line.startswith("  "):
            break
        words = line.split()
        if not line.startswith("   "):
            module, words = words[0], words[1:]
        found.setdefault(module, []).extend(words)
    return found


def framework_checks(**env):
    """The framework checks a fix breaks, as ``--json`` reports them with *env*:
    ``[(package, entry)]`` of installed frameworks."""
    rc, out, err = check("--json", **env)
    document = json.loads(out)
    return [(package, entry) for package in PACKAGES
            for entry in document[package].get("framework_checks", ()) if entry["installed"]]


def under_rows(out):
    """``{fix: [framework check, ...]}``: the lines indented under a fix's line in
    ``--verbose`` (wrapped continuations, indented deeper, aside)."""
    lines = out.splitlines()
    found, row = {}, None
    for line in lines[lines.index("every fix:") + 1:]:
        if not line.startswith(" "):
            row = line.split(":")[0]
        elif not line.startswith("   "):
            found.setdefault(row, []).append(line.split(":")[0].strip())
    return found


def test_verbose_lists_one_line_per_registry_entry_after_the_summary():
    rc, out, err = check("--verbose")
    assert [cve for cve, verdict in every_fix(out)] == [fix.cve for fix in
                                                        shared_registry.FIXES]
    assert out.splitlines()[0].startswith("verdict: ")
    # Under a row, indented: each framework check its fix breaks (installed ones).
    assert under_rows(out) == dict((entry["after"], [entry["cve"]])
                                   for _, entry in framework_checks())


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
    """The line (its wrapped continuations joined) of Django's check under
    CVE-2022-0391's row in ``--verbose``, and the output."""
    rc, out, err = check("--verbose", **env)
    lines = out.splitlines()
    start = [index for index, line in enumerate(lines) if line.startswith("  CVE-2021-32052:")]
    joined = [lines[start[0]]]
    for line in lines[start[0] + 1:]:
        if not line.startswith("   "):
            break
        joined.append(line.strip())
    return " ".join(joined).strip(), out


def test_a_framework_check_a_fix_breaks_has_its_line_and_verdict():
    # Django's URLValidator (CVE-2021-32052) under CVE-2022-0391's row: exposed where
    # this interpreter's own urlsplit removes tab, CR and LF and Django lacks its fix
    # (3.8 and Django 3.1.6), safe once the umbrella applies Django's fix.
    importorskip("django.core.validators")
    exposed = run_json(STOCK_VALIDATOR) == "accepts"
    line, out = django_check_line()
    assert line.split()[:2] == ["CVE-2021-32052:", "EXPOSED" if exposed else "safe"]
    assert line.endswith("(Django #32713, after CVE-2022-0391, urllib_parse_backport)")
    listed = [cve for cves in exposed_by_module(out).values() for cve in cves] \
        if "exposed, by module:" in out.splitlines() else []
    assert ("CVE-2021-32052" in listed) is exposed
    assert ("framework check" in out.splitlines()[0]) is exposed
    line, out = django_check_line(CPYTHON_SECURITY_PATCH="1")
    assert line.split()[:2] == ["CVE-2021-32052:", "safe"]


def test_the_verdict_what_to_do_and_the_exposed_fixes_by_module_come_first(tmpdir):
    hidden = without_copies(tmpdir)  # the copies' lines: tests/test_stdlib_copies_report.py
    rc, out, err = check("--verbose", PYTHONPATH=hidden)
    lines = out.splitlines()
    exposed = [cve for cve, verdict in every_fix(out) if verdict == "EXPOSED"]
    if not exposed:
        pytest.skip("nothing exposed in a bare process here")
    broken = [entry for _, entry in framework_checks(PYTHONPATH=hidden) if entry["exposed"]]
    assert lines[0] == "verdict: EXPOSED (%d of %d fixes not in effect%s)" % (
        len(exposed), len(shared_registry.FIXES), ", %d framework check%s broken" % (
            len(broken), "" if len(broken) == 1 else "s") if broken else "")
    assert lines[1].startswith("hint: ")
    by_module = exposed_by_module(out)
    for entry in broken:  # a framework check, under the check's own name
        assert by_module.pop(entry["check"]) == [entry["cve"]]
    assert sorted(cve for cves in by_module.values() for cve in cves) == sorted(exposed)
    for module, cves in by_module.items():
        assert all(fix.module == module or module in fix.probes
                   for fix in shared_registry.FIXES if fix.cve in cves), module
    assert lines.index("exposed, by module:") < lines.index("every fix:")
    assert check(PYTHONPATH=hidden)[1] == out[:out.index("every fix:")] + (
        "cpython-security-check --verbose lists every fix, --json every status\n")


@pytest.mark.parametrize("environ", [
    {}, {"CPYTHON_SECURITY_PATCH": "1"}, {"CPYTHON_SECURITY_SKIP": "CVE-2025-0938"},
    {"CPYTHON_SECURITY_PATCH": "1", "CPYTHON_SECURITY_SKIP": ",".join(PACKAGES)}])
def test_every_line_fits_80_columns(environ):
    for args in ([], ["--verbose"]):
        rc, out, err = check(*args, **environ)
        assert [line for line in out.splitlines() if len(line) > 80] == []


def test_bare_process_is_exposed():
    # Twisted Web's own parser splits on ';' in every pinned release; on 2.7
    # the stdlib and ctypes are unfixed too.
    importorskip("twisted.web.http")
    rc, out, err = check("--verbose")
    assert rc == 1, err
    verdicts = dict(every_fix(out))
    assert verdicts["CVE-2021-23336"] == "EXPOSED"
    assert verdicts["CVE-2021-3177"] == ("EXPOSED" if sys.version_info[0] == 2 else "safe")
    # Every interpreter of the matrix lacks CVE-2025-0938's fix (3.12.9, 3.13.2).
    assert verdicts["CVE-2025-0938"] == "EXPOSED"
    lines = out.splitlines()
    assert lines[0].startswith("verdict: EXPOSED (")
    assert "CVE-2021-23336" in exposed_by_module(out)[shared_registry.FIXES[0].replaces[0]
                                                      .rsplit(".", 1)[0]]
    assert hints(out) == ["hint: set CPYTHON_SECURITY_PATCH=1 to apply every fix at start-up"]
    assert "per-package" not in out


def without_copies(tmpdir):
    """A ``PYTHONPATH`` on which python-future does not import: the check then reads the
    stdlib alone (tests/test_stdlib_copies.py has what it says of the copies)."""
    tmpdir.join("future").ensure(dir=True).join("__init__.py").write(
        "raise ImportError('python-future hidden from this check')\n")
    return str(tmpdir)


@pytest.mark.parametrize("environ", [{}, {"CPYTHON_SECURITY_PATCH": "1"}])
def test_the_idna_line_says_what_this_interpreter_lacks(environ):
    # 3.7-3.11 carry gh-98433's linear nameprep (gh-99222 to gh-99232) and lack
    # only its label bound: their line must not describe the quadratic bidi check.
    import encodings.idna
    rc, out, err = check("--verbose", **environ)
    lines = out.splitlines()
    start = [index for index, line in enumerate(lines) if line.startswith("CVE-2022-45061:")]
    line = " ".join(" ".join(lines[start[0]:start[0] + 3]).split())
    line = line.split(" (gh-98433, idna_backport)")[0]
    quadratic = idna_fix._bidi_check_quadratic(encodings.idna)
    unbounded = idna_fix._label_unbounded(encodings.idna)
    if quadratic or unbounded:
        assert ("right-to-left" in line) is quadratic, line
        assert ("labels of any length" in line) is not quadratic, line
    else:  # it carries both halves: the line says what the CVE is
        assert line.endswith(BY_PACKAGE["idna_backport"].summary), line


def test_every_switch_makes_the_process_safe(tmpdir):
    rc, out, err = check(PYTHONPATH=without_copies(tmpdir),
                         **dict((BY_PACKAGE[package].variable, BY_PACKAGE[package].umbrella)
                                for package in PACKAGES))
    assert rc == 0, out + err
    assert out.splitlines()[0] == "verdict: safe"


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
            "applies both)") in hints(out)
    # With =1 a Django without its own CVE-2021-32052 fix accepts a newline once
    # urlsplit removes it; =frameworks adds Django's fix too.
    broken = [entry for _, entry in framework_checks(
        CPYTHON_SECURITY_PATCH="1", URLLIB_PARSE_BACKPORT_PATCH="1") if entry["exposed"]]
    assert out.splitlines()[0] == "verdict: EXPOSED (1 of %d fixes not in effect%s)" % (
        len(shared_registry.FIXES), ", %d framework check%s broken" % (
            len(broken), "" if len(broken) == 1 else "s") if broken else "")
    module = shared_registry.FIXES[0].replaces[0].rsplit(".", 1)[0]  # 2.7's urlparse
    wanted = {module: ["CVE-2021-23336"]}
    wanted.update((entry["check"], [entry["cve"]]) for entry in broken)
    assert exposed_by_module(out) == wanted


def hints(out):
    """The hint lines, each joined with the lines it wraps onto."""
    found, inside = [], False
    for line in out.splitlines():
        if line.startswith("hint: "):
            found.append(line)
            inside = True
        elif inside and line.startswith("  "):
            found[-1] += " " + line.strip()
        else:
            inside = False
    return found


def test_the_hint_names_what_the_skip_list_leaves_out():
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="CVE-2025-0938")
    assert rc == 1  # every interpreter of the matrix lacks CVE-2025-0938's fix
    assert hints(out) == ["hint: CPYTHON_SECURITY_SKIP=CVE-2025-0938 leaves CVE-2025-0938 "
                          "out: unset CPYTHON_SECURITY_SKIP to apply them"]


def test_the_skip_list_alone_is_not_what_to_undo():
    # Without a switch, unsetting the skip list applies nothing: the hint names the switch.
    rc, out, err = check(CPYTHON_SECURITY_SKIP="CVE-2025-0938")
    assert rc == 1
    assert "unset CPYTHON_SECURITY_SKIP to apply them" not in " ".join(out.split())
    assert hints(out) == ["hint: set CPYTHON_SECURITY_PATCH=1 to apply every fix at start-up, "
                          "and unset CPYTHON_SECURITY_SKIP: CPYTHON_SECURITY_SKIP=CVE-2025-0938 "
                          "leaves CVE-2025-0938 out"]


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
        assert rc == 1, out + err
        assert [cve for cves in exposed_by_module(out).values() for cve in cves] == lacking[:1]


def test_the_umbrella_alone_makes_the_process_safe(tmpdir):
    rc, out, err = check(CPYTHON_SECURITY_PATCH="1", PYTHONPATH=without_copies(tmpdir))
    assert (rc, out.splitlines()[0]) == (0, "verdict: safe"), out + err


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
    exposed = [cve for cves in exposed_by_module(out).values() for cve in cves]
    for package in (MISSING, BROKEN):
        cves = [fix.cve for fix in shared_registry.fixes_of(package)]
        assert set(cves) <= set(exposed)
        assert len([line for line in hints(out) if line.startswith("hint: " + package) and
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
