"""The shim across interpreter start-up: import order, the .pth file, -W error.

Every case runs a fresh ``sys.executable`` of the test environment, where the
wheel (and so ``cpython_security_patch.pth``) is installed.
"""

import json
import os
import shutil
import sys
import tempfile

import pytest

from dependencies import importorskip
from stdlib_state import FORCE, LACKS_A_FIX, UNFIXED

from fresh_interpreter import ATTACK, run_code

PY2 = sys.version_info[0] == 2
STDLIB = "urlparse" if PY2 else "urllib.parse"
VARIABLE = "URLLIB_PARSE_BACKPORT_PATCH"
PTH_NAME = "cpython_security_patch.pth"


IMPORT_PARSER = "import %s; print('alive')" % STDLIB


def run(code, env=None, args=(), flags=()):
    return run_code(code, args, flags, **(env or {}))


STATUS = """
import json, sys
from %(stdlib)s import parse_qs
print(json.dumps({
    "loaded": "urllib_parse_backport" in sys.modules,
    "patched": "urllib_parse_backport" in sys.modules
               and sys.modules["urllib_parse_backport"].is_patched(),
    "result": parse_qs(%(attack)r),
}))
""" % {"stdlib": STDLIB, "attack": ATTACK}


def status(env=None, flags=()):
    code, out, err = run(STATUS, env=env, flags=flags)
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def site_packages_pth():
    import urllib_parse_backport
    root = os.path.dirname(os.path.dirname(os.path.abspath(urllib_parse_backport.__file__)))
    return os.path.join(root, PTH_NAME)


def test_pth_file_is_installed_at_the_root_of_site_packages():
    path = site_packages_pth()
    assert os.path.isfile(path)
    with open(path) as handle:
        lines = handle.read().splitlines()
    assert len(lines) == 1 and lines[0].startswith("import os; ")


def test_unset_variable_leaves_the_process_alone():
    state = status()
    assert not state["loaded"]
    if UNFIXED:
        assert state["result"]["utm_content"] == ["s"]  # the vulnerable stdlib, untouched


def test_pth_line_imports_nothing_but_os_when_unset():
    with open(site_packages_pth()) as handle:
        line = handle.read().strip()
    # site.py has imported os before it reads .pth files; exec the line again.
    code = ("import os, sys\nbefore = set(sys.modules)\nexec(%r)\n"
            "print(sorted(set(sys.modules) - before))" % line)
    rc, out, err = run(code)
    assert (rc, err) == (0, "")
    assert eval(out) == []


@pytest.mark.parametrize("value", ["1", "true", "on", "force"])
def test_variable_patches_at_start_up(value):
    state = status(env={VARIABLE: value})
    # The package is imported when the stdlib parser is, and only if that needs a fix.
    assert state["loaded"] is (LACKS_A_FIX or value == "force")
    assert state["result"] == {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
    if LACKS_A_FIX or value == "force":
        assert state["patched"]


@pytest.mark.parametrize("value", ["0", "off", ""])
def test_variable_off_values(value):
    assert not status(env={VARIABLE: value})["patched"]


def test_start_up_activation_under_warnings_as_errors():
    state = status(env={VARIABLE: "force"}, flags=["-W", "error"])
    assert state["patched"]
    assert state["result"]["utm_content"] == ["s;q=malicious_term"]


def test_half_removed_package_says_so_in_one_line_and_the_process_goes_on():
    # A broken package shadowing the installed one, as after an interrupted
    # uninstall: the operator asked for the fix, so the failure must show.
    broken = tempfile.mkdtemp()
    try:
        os.mkdir(os.path.join(broken, "urllib_parse_backport"))
        with open(os.path.join(broken, "urllib_parse_backport", "__init__.py"), "w") as f:
            f.write("raise ImportError('half removed')\n")
        # Reported when the fix is due: when the stdlib parser is imported.
        rc, out, err = run(IMPORT_PARSER, env={VARIABLE: "force", "PYTHONPATH": broken})
        assert (rc, out.strip()) == (0, "alive")
        assert err == ("urllib_parse_backport: start-up activation failed: cannot import "
                       "urllib_parse_backport._shim._startup: ImportError: half removed; "
                       "nothing of it was patched: repair the install: pip install "
                       "--force-reinstall cpython-security-backports\n")
        with open(os.path.join(broken, "urllib_parse_backport", "__init__.py"), "w") as f:
            f.write("def broken(:\n")
        rc, out, err = run(IMPORT_PARSER, env={VARIABLE: "force", "PYTHONPATH": broken})
        assert (rc, out.strip()) == (0, "alive")
        assert err.startswith("urllib_parse_backport: start-up activation failed: cannot "
                              "import urllib_parse_backport._shim._startup: SyntaxError")
        assert len(err.splitlines()) == 1
    finally:
        shutil.rmtree(broken)


@pytest.mark.parametrize("value", ["ture", "frameworkz", "2", "yes please"])
def test_a_typo_prints_one_line_and_patches_nothing(value):
    rc, out, err = run(STATUS, env={VARIABLE: value})
    assert rc == 0
    assert not json.loads(out)["patched"]
    assert err.splitlines() == [
        "urllib_parse_backport: ignoring URLLIB_PARSE_BACKPORT_PATCH=%r: accepted values are "
        "1/true/yes/on, force, frameworks (patch) or 0/false/no/off/empty (nothing); "
        "nothing was patched" % value]


def test_an_exception_during_activation_prints_one_line(tmp_path):
    # A sitecustomize-free way to make patch() fail: a module named like the
    # stdlib target's package that cannot be imported is not enough (the
    # stdlib is loaded); a broken _apply module shadowing the real one is.
    import urllib_parse_backport
    package = os.path.dirname(os.path.abspath(urllib_parse_backport.__file__))
    shadow = tmp_path / "urllib_parse_backport"
    shutil.copytree(package, str(shadow))
    for directory, folders, files in os.walk(str(shadow), topdown=False):
        for name in folders + files:
            if name.endswith(".pyc") or name == "__pycache__":
                path = os.path.join(directory, name)
                (shutil.rmtree if os.path.isdir(path) else os.remove)(path)
    (shadow / "_shim" / "_apply.py").write_text(u"raise RuntimeError('broken on purpose')\n")
    rc, out, err = run(IMPORT_PARSER, env={VARIABLE: "force", "PYTHONPATH": str(tmp_path)})
    assert (rc, out.strip()) == (0, "alive")
    # One line, naming the cause: where the failing module is imported by the
    # start-up module itself (3.6), it reads as the broken install it is.
    assert len(err.splitlines()) == 1, err
    assert err.startswith("urllib_parse_backport: start-up activation failed: "), err
    assert "RuntimeError: broken on purpose" in err, err


@pytest.mark.parametrize("value", ["&&", "", "semicolon"])
def test_a_separator_setting_that_makes_every_parse_raise_is_reported_at_start_up(value):
    rc, out, err = run("print('alive')", env={"PYTHON_URLLIB_QS_SEPARATOR": value})
    assert (rc, out.strip()) == (0, "alive")
    assert err.splitlines() == [
        "urllib_parse_backport: PYTHON_URLLIB_QS_SEPARATOR=%r is not valid: "
        "PYTHON_URLLIB_QS_SEPARATOR (from environment variable) must contain 1 character, "
        'or "legacy". See https://access.redhat.com/articles/5860431 for more details.'
        % value]


@pytest.mark.parametrize("value", ["&", ";", "legacy"])
def test_a_valid_separator_setting_is_quiet_at_start_up(value):
    assert run("print('alive')", env={"PYTHON_URLLIB_QS_SEPARATOR": value})[1:] == ("alive\n", "")


LOGGED = """
import json, logging
records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append([record.name, record.levelname, record.getMessage()])
logging.getLogger().addHandler(Keep())
logging.getLogger().setLevel(logging.INFO)
import urllib_parse_backport
urllib_parse_backport.patch(force=True)
urllib_parse_backport.unpatch()
print(json.dumps(records))
"""


def test_patch_and_unpatch_log_what_they_changed():
    rc, out, err = run(LOGGED)
    assert rc == 0, err
    records = json.loads(out)
    changed = [message for name, level, message in records
               if name == "urllib_parse_backport" and level == "INFO" and "changed" in message]
    assert len(changed) == 2
    patched = changed[0][len("patch: changed "):].split(", ")
    assert changed[0].startswith("patch: changed ")
    assert "%s.parse_qs" % STDLIB in patched and "%s.parse_qsl" % STDLIB in patched
    assert changed[1].startswith("unpatch: changed ")
    assert sorted(changed[1][len("unpatch: changed "):].split(", ")) == sorted(patched)


def test_without_logging_configured_patch_is_quiet():
    rc, out, err = run("import urllib_parse_backport as u; u.patch(force=True); u.unpatch()")
    assert (rc, out, err) == (0, "", "")


IMPORT_ORDER = """
import sys
force = sys.argv[1] == 'force'
if sys.argv[2] == 'alias-first':
    from %(stdlib)s import parse_qsl as early
    import urllib_parse_backport
    urllib_parse_backport.patch(force=force)
else:
    import urllib_parse_backport
    urllib_parse_backport.patch(force=force)
    from %(stdlib)s import parse_qsl as early
result = early(%(attack)r)
assert result == [('q', 'common_term'), ('utm_content', 's;q=malicious_term')], result
urllib_parse_backport.unpatch()
import %(stdlib)s as stdlib
assert early is stdlib.parse_qsl
print('ok')
""" % {"stdlib": STDLIB, "attack": ATTACK}


@pytest.mark.parametrize("order", ["alias-first", "patch-first"])
def test_import_order(order):
    rc, out, err = run(IMPORT_ORDER, args=["force" if FORCE else "plain", order],
                       flags=["-W", "error"])
    assert (rc, out.strip()) == (0, "ok"), err


def test_importing_the_package_changes_nothing_in_a_fresh_process():
    code = ("import %s as s; before = (s.parse_qs, s.parse_qsl, s.parse_qsl.__code__)\n"
            "import urllib_parse_backport\n"
            "assert (s.parse_qs, s.parse_qsl, s.parse_qsl.__code__) == before\n"
            "assert not urllib_parse_backport.is_patched()\nprint('ok')" % STDLIB)
    rc, out, err = run(code, flags=["-W", "error"])
    assert (rc, out.strip()) == (0, "ok"), err


LAZY = """
import json, sys, types
touched = []
class LazyModule(types.ModuleType):
    # As apipkg's ApiModule (used by py): reading __dict__ loads everything.
    @property
    def __dict__(self):
        touched.append(True)
        return {}
class Proxy(object):
    @property
    def __dict__(self):
        touched.append(True)
        return {}
sys.modules["lazy_for_test"] = LazyModule("lazy_for_test")
sys.modules["proxy_for_test"] = Proxy()
import %(stdlib)s as stdlib
sys.modules["lazy_for_test"].alias = stdlib.parse_qsl  # a binding it does hold
import urllib_parse_backport
urllib_parse_backport.patch(force=True)
print(json.dumps([touched, sys.modules["lazy_for_test"].alias is stdlib.parse_qsl]))
""" % {"stdlib": STDLIB}


def test_the_alias_scan_never_runs_a_lazy_module_class_code():
    rc, out, err = run(LAZY)
    assert (rc, err) == (0, "")
    touched, rebound = json.loads(out)
    assert touched == [] and rebound


APIPKG = """
import json, sys
import py  # apipkg's ApiModule: reading its __dict__ imports everything it names
before = set(sys.modules)
import urllib_parse_backport
urllib_parse_backport.patch(force=True, frameworks=True)
urllib_parse_backport.unpatch()
print(json.dumps(sorted(name for name in set(sys.modules) - before
                        if name == "compiler" or name.startswith("py."))))
"""


def test_the_alias_scan_leaves_py_lazy_modules_unloaded():
    # py is what pytest before 7.2 loads: 64 modules (compiler, ctypes, subprocess...)
    # and a DeprecationWarning on 2.7 when its __dict__ property runs.
    importorskip("py")
    rc, out, err = run(APIPKG, flags=["-W", "error::DeprecationWarning"])
    assert (rc, err) == (0, "")
    assert json.loads(out) == []


def test_a_process_that_imports_no_parser_never_loads_the_package():
    rc, out, err = run("import sys; print('urllib_parse_backport' in sys.modules)",
                       env={VARIABLE: "force"})
    assert (rc, out.strip(), err) == (0, "False", "")


def test_python_future_is_not_imported_at_start_up():
    rc, out, err = run("import sys, %s; print('future' in sys.modules)" % STDLIB,
                       env={VARIABLE: "force"})
    assert (rc, out.strip(), err) == (0, "False", "")


JUST_IMPORTED = """
import json, sys, types
fake = types.ModuleType("fake_parser")
exec("def parse_qsl(qs, keep_blank_values=0):\\n    return 'unfixed'\\n", fake.__dict__)
sys.modules["fake_parser"] = fake
kept = [fake.parse_qsl]  # in a list: the scan rebinds module-level names only
holder = types.ModuleType("holder")
holder.alias = kept[0]  # bound before the patch: only the scan of every module rebinds it
sys.modules["holder"] = holder
import urllib_parse_backport
from urllib_parse_backport._shim._targets import Target
target = Target("fake_parser", {"parse_qsl": urllib_parse_backport.parse_qsl},
                assess=lambda module, verdicts: (True, "for the test"))
# _at_startup: python-future's copy (installed with the test dependencies) waits
# for its import, as at start-up, instead of being imported and patched now.
report = urllib_parse_backport.patch(_targets=[target], _at_startup=True,
                                     _just_imported=sys.argv[1:])
seen = [holder.alias is kept[0], holder.alias("a=1;b=2"), fake.parse_qsl("a=1;b=2"),
        sorted(name for name in report.changed if not name.startswith("%(stdlib)s."))]
urllib_parse_backport.unpatch()
seen.append([fake.parse_qsl is kept[0], holder.alias is kept[0], kept[0]("a=1;b=2")])
print(json.dumps(seen))
""" % {"stdlib": STDLIB}


@pytest.mark.parametrize("just_imported", [["fake_parser", STDLIB], []])
def test_a_module_patched_right_after_its_first_import_is_not_searched_for_elsewhere(
        just_imported):
    # The start-up switch patches from the post-import hook, before the import
    # that binds the module's functions anywhere else has returned, so it names
    # the module as just imported and the scan of every loaded module is skipped.
    # A binding made some other way (here by hand) still gets the fix, through
    # the in-place code swap; without the name, the scan rebinds it as always.
    rc, out, err = run(JUST_IMPORTED, args=just_imported)
    assert (rc, err) == (0, "")
    still_original, through_alias, through_module, changed, restored = json.loads(out)
    fixed = [["a", "1;b=2"]]
    assert (through_alias, through_module) == (fixed, fixed)
    in_place = ["fake_parser.parse_qsl", "fake_parser.parse_qsl (in place)"]
    if just_imported:
        assert still_original and changed == in_place
    else:
        assert not still_original and changed == in_place + ["holder.alias"]
    assert restored == [True, True, "unfixed"]
