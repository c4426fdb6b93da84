"""Both start-up switches together: what they load, where their report goes, forked workers.

Every case runs a fresh interpreter of the test environment, where the wheel
(and so its one ``.pth`` file) is installed. ``force`` makes both packages patch
on every interpreter, so each case sees a report.
"""

import json
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run_code
from implementation import HAS_C_REPR, NO_C_REPR
from internals import BY_PACKAGE, PACKAGES

PARSER = "urlparse" if sys.version_info[0] == 2 else "urllib.parse"
BOTH = {"URLLIB_PARSE_BACKPORT_PATCH": "force", "CTYPES_SAFE_PATCH": "force"}

LOADED = ("import json, sys\n"  # 2.7 records failed implicit relative imports as None
          "print(json.dumps(sorted(n for n, m in sys.modules.items() if m is not None)))")


@pytest.mark.parametrize("value", ["force", "frameworks"])
def test_a_process_that_imports_neither_target_loads_only_the_start_up_switch(value):
    code, out, err = run_code(LOADED)
    assert (code, err) == (0, "")
    code, out_with, err = run_code(LOADED, URLLIB_PARSE_BACKPORT_PATCH=value,
                                   CTYPES_SAFE_PATCH="force")
    assert (code, err) == (0, "")
    extra = set(json.loads(out_with)) - set(json.loads(out))
    # The generated table and the hook, never the registry (issue 55): what start-up
    # costs does not grow with the number of fixes.
    assert extra == set(["_cpython_security", "_cpython_security._deferred",
                         "_cpython_security._import_hook", "_cpython_security._table"])


def test_the_start_up_table_names_every_module_and_value_the_registry_has():
    # What _deferred watches before the registry loads must cover every row on this
    # interpreter (tools/make_pth.py writes it from both major versions' rows).
    from internals import shared_registry, shared_startup, start_up_table
    for fix in shared_registry.FIXES:
        modules = set(fix.probes) | set([fix.package])
        for names in fix.option_modules.values():
            modules.update(names)
        assert modules <= start_up_table.WATCHED, fix.cve
        switch = shared_startup.SWITCHES[fix.package]
        understood = start_up_table.UNDERSTOOD[fix.variable]
        for value in understood:
            assert switch.choice(value) != "invalid", (fix.variable, value)
        assert set(value for value, _ in fix.options) <= set(understood), fix.variable
        assert fix.cve.upper() in start_up_table.SKIP_NAMES
        assert set(fix.also_variables) <= set(start_up_table.ALSO_VARIABLES)
        assert all(fix.package in start_up_table.MODULE_PACKAGES[name] for name in modules)
        assert start_up_table.SWITCH_VARIABLES[fix.package] == (
            fix.variable, tuple(fix.also_variables))
    assert set(start_up_table.MODULE_PACKAGES) == start_up_table.WATCHED
    assert list(start_up_table.FIX_PACKAGES) == [
        (fix.cve, fix.package) for fix in shared_registry.FIXES]


@pytest.mark.parametrize("module", ["tarfile", "zipfile"])
def test_a_watched_import_reads_the_rows_of_the_packages_watching_it_alone(module):
    # Issue 55: the first import of a watched module loads the rows of the packages
    # that watch the modules it loaded, never the registry's other rows: what that
    # import costs does not grow with the number of fixes. Its package is patched all
    # the same. (zipfile imports pathlib, which imports urllib.parse on 3.8-3.11.)
    from internals import start_up_table
    code, out, err = run_code("import %s\n%s" % (module, LOADED), CPYTHON_SECURITY_PATCH="1")
    assert (code, err) == (0, "")
    loaded = set(json.loads(out))
    rows = set(name for name in loaded if name.startswith("_cpython_security._rows."))
    watching = set("_cpython_security._rows." + package for name in loaded
                   for package in start_up_table.MODULE_PACKAGES.get(name, ()))
    assert "_cpython_security._rows.%s_backport" % module in rows
    assert rows == watching
    assert "_cpython_security._registry" not in loaded
    assert "%s_backport" % module in loaded


def test_frameworks_waits_for_the_module_of_every_adapter():
    from internals import _checks, _frameworks, shared_registry
    assert sorted(shared_registry.FRAMEWORK_MODULES) == sorted(
        set(adapter.module for adapter in _frameworks.ADAPTERS + _checks.CHECKS))


FRAMEWORK_FIRST = """
import json, sys
import bottle  # an adapted framework: its import runs the package
report = sys.modules["urllib_parse_backport"].patch()
print(json.dumps(["urllib_parse_backport" in sys.modules,
                  [label for label, _ in report.skipped] + report.changed]))
"""


def test_frameworks_patches_when_a_framework_is_imported():
    importorskip("bottle")
    code, out, err = run_code(FRAMEWORK_FIRST, URLLIB_PARSE_BACKPORT_PATCH="frameworks")
    assert (code, err) == (0, "")
    loaded, labels = json.loads(out)
    # The bottle adapter looked at bottle (patched it, or said why not).
    assert loaded and [label for label in labels if label.split(".")[0] == "bottle"]


def test_the_pth_lines_compile_nothing():
    # The first compile() of a process costs 0.7 ms on 2.7 and 1.5 ms on 3.13:
    # the lines are plain expressions.
    code, out, err = run_code(
        ("import builtins\n" if sys.version_info[0] > 2 else "import __builtin__ as builtins\n") +
        "import glob, os, _cpython_security._startup as s\n"
        "calls = []\n"
        "real = builtins.compile\n"
        "builtins.compile = lambda *a, **k: calls.append(a) or real(*a, **k)\n"
        "s._FROM_PTH.clear()\n"
        "for path in glob.glob(os.path.join(os.path.dirname(os.path.dirname(s.__file__)),"
        " '*_p*.pth')):\n"
        "    exec(open(path).read())\n"
        "print(len(calls))", URLLIB_PARSE_BACKPORT_PATCH="0", CTYPES_SAFE_PATCH="0")
    assert (code, err) == (0, "")
    assert out.strip() == "0"


STARTED = ("import sys\n"
           "print('_cpython_security._deferred' in sys.modules)")

ONE_FILE = ("import glob, os, _cpython_security as s\n"
            "site = os.path.dirname(os.path.dirname(s.__file__))\n"
            "print(sorted(os.path.basename(path) for path in glob.glob(os.path.join(site, '*.pth'))"
            " if '_cpython_security' in open(path).read()))")


def test_one_start_up_file_reads_every_package_variable():
    # site opens and compiles every .pth file in every process, variable or not:
    # the distribution installs one, which starts a switch for any variable.
    code, out, err = run_code(ONE_FILE)
    assert (code, err, out.strip()) == (0, "", "['cpython_security_patch.pth']")
    variables = ["CPYTHON_SECURITY_PATCH"] + [BY_PACKAGE[package].variable
                                              for package in PACKAGES]
    assert run_code(STARTED)[1].strip() == "False"
    for variable in variables:
        # "0" turns the switch off, but is set: the line reads it and starts the switch.
        assert run_code(STARTED, **{variable: "0"})[1].strip() == "True", variable
    assert run_code(STARTED, PYTHON_URLLIB_QS_SEPARATOR="&")[1].strip() == "True"


PTH_TWICE = """
import glob, os, sys, logging
import _cpython_security._startup as startup
site_packages = os.path.dirname(os.path.dirname(startup.__file__))
for _ in range(2):  # as a site that reads site-packages twice would
    with open(os.path.join(site_packages, "cpython_security_patch.pth")) as handle:
        exec(handle.read())
from _cpython_security._import_hook import installed
hooks = installed()
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%%(name)s %%(message)s")
import %(parser)s, ctypes
print(len(hooks))
"""


@pytest.mark.skipif(not HAS_C_REPR, reason=NO_C_REPR)
def test_a_pth_line_read_twice_acts_once():
    code, out, err = run_code(PTH_TWICE % {"parser": PARSER}, **BOTH)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[-1] == "1"  # one hook until a watched module is imported, not two
    for start in ("urllib_parse_backport patch: changed ",
                  "ctypes_safe patch (slot mode): replaced "):
        assert len([line for line in lines if line.startswith(start)]) == 1, start


def test_a_broken_shared_package_shows_sites_error_and_the_process_goes_on(tmp_path):
    broken = tmp_path / "_cpython_security"
    broken.mkdir()
    (broken / "__init__.py").write_text(u"raise ImportError('half removed')\n")
    code, out, err = run_code("print('alive')", PYTHONPATH=str(tmp_path), **BOTH)
    assert (code, out.strip()) == (0, "alive")
    # site names the .pth file and the error, once (twice where it reads
    # site-packages twice), and goes on.
    assert err.count("ImportError: half removed") in (1, 2)
    assert "cpython_security_patch.pth" in err


APP = """
import logging, logging.config, sys
import %(parser)s, ctypes
repr(ctypes.c_double.from_param(1.5))
if sys.argv[1] == "basicConfig":
    logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%%(name)s %%(message)s")
else:
    logging.config.dictConfig({
        "version": 1,
        "formatters": {"plain": {"format": "%%(name)s %%(message)s"}},
        "handlers": {"out": {"class": "logging.StreamHandler", "formatter": "plain",
                             "stream": "ext://sys.stdout"}},
        "root": {"level": "INFO", "handlers": ["out"]},
    })
log = logging.getLogger("app")
log.info("ready")
log.info("serving")
"""


def app_log(how):
    code, out, err = run_code(APP % {"parser": PARSER}, args=[how], **BOTH)
    assert (code, err) == (0, "")
    return out.splitlines()


def _check_report_comes_once_before_the_apps_first_line(lines):
    ready = lines.index("app ready")
    assert lines[ready + 1:] == ["app serving"]
    report = lines[:ready]
    changed = [line for line in report if line.startswith("urllib_parse_backport patch: changed ")]
    assert len(changed) == 1 and "%s.parse_qs," % PARSER in changed[0]
    assert len([line for line in report if line.startswith(
        "ctypes_safe patch (slot mode): replaced ")]) == 1


@pytest.mark.skipif(not HAS_C_REPR, reason=NO_C_REPR)
def test_a_basic_config_app_sees_the_start_up_report_in_its_log():
    _check_report_comes_once_before_the_apps_first_line(app_log("basicConfig"))


@pytest.mark.skipif(not HAS_C_REPR, reason=NO_C_REPR)
def test_a_dict_config_app_sees_the_start_up_report_in_its_log():
    # dictConfig's default disable_existing_loggers=True must not swallow it.
    _check_report_comes_once_before_the_apps_first_line(app_log("dictConfig"))


def test_without_logging_configured_the_start_up_report_prints_nothing():
    code, out, err = run_code("import %s, ctypes, logging; logging.getLogger('x').info('y')"
                              % PARSER, **BOTH)
    assert (code, out, err) == (0, "", "")


def test_a_warning_without_logging_configured_is_one_bare_line_on_every_interpreter():
    # As Python 3's logging.lastResort; never 2.7's "No handlers could be found".
    code, out, err = run_code(
        "import logging, urllib_parse_backport as u; u.patch(force=True); "
        "logging.getLogger('urllib_parse_backport').warning('w'); "
        "logging.getLogger('urllib_parse_backport').info('i')")
    assert (code, out, err) == (0, "", "w\n")


FORKED = """
import json, os, sys
def check():
    import %(parser)s as parser, ctypes
    return [parser.parse_qs("a=1;b=2"), repr(ctypes.c_double.from_param(1e300))]
if sys.argv[1] == "after":
    check()
read, write = os.pipe()
pid = os.fork()
if pid == 0:
    os.write(write, json.dumps(check()).encode("ascii"))
    os._exit(0)
os.close(write)
os.waitpid(pid, 0)
print(os.read(read, 4096).decode("ascii"))
"""


@pytest.mark.skipif(not HAS_C_REPR, reason=NO_C_REPR)
def test_the_fixes_are_in_force_in_a_forked_worker():
    # Forked after the targets were imported (patched in the parent), and before
    # (patched in the child, when it imports them).
    for when in ("after", "before"):
        code, out, err = run_code(FORKED % {"parser": PARSER}, args=[when], **BOTH)
        assert (code, err) == (0, "")
        assert json.loads(out) == [{"a": ["1;b=2"]}, "<cparam 'd' (1e+300)>"], when
