"""The shim across interpreter start-up: import order, the .pth file, -W error (issue 4).

Every case runs a fresh ``sys.executable`` of the test environment, where the
wheel (and so ``urllib_parse_backport_shim.pth``) is installed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from stdlib_state import FORCE, UNFIXED

PY2 = sys.version_info[0] == 2
STDLIB = "urlparse" if PY2 else "urllib.parse"
ATTACK = "q=common_term&utm_content=s;q=malicious_term"
VARIABLE = "URLLIB_PARSE_BACKPORT_PATCH"
PTH_NAME = "urllib_parse_backport_shim.pth"


def run(code, env=None, args=(), flags=()):
    environ = dict(os.environ)
    for name in (VARIABLE, "PYTHON_URLLIB_QS_SEPARATOR", "URLLIB_PARSE_BACKPORT_WARN",
                 "PYTHONWARNINGS"):
        environ.pop(name, None)
    environ.update(env or {})
    process = subprocess.Popen([sys.executable] + list(flags) + ["-c", code] + list(args),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environ, universal_newlines=True)
    out, err = process.communicate()
    return process.returncode, out, err


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
    assert len(lines) == 1 and lines[0].startswith("import os;")


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
    assert state["loaded"]
    assert state["result"] == {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
    if UNFIXED or value == "force":
        assert state["patched"]


@pytest.mark.parametrize("value", ["0", "off", ""])
def test_variable_off_values(value):
    assert not status(env={VARIABLE: value})["patched"]


def test_start_up_activation_under_warnings_as_errors():
    state = status(env={VARIABLE: "force"}, flags=["-W", "error"])
    assert state["patched"]
    assert state["result"]["utm_content"] == ["s;q=malicious_term"]


def test_half_removed_package_prints_nothing_at_start_up():
    # A broken package shadowing the installed one, as after an interrupted
    # uninstall: the .pth line must stay silent.
    broken = tempfile.mkdtemp()
    try:
        os.mkdir(os.path.join(broken, "urllib_parse_backport"))
        with open(os.path.join(broken, "urllib_parse_backport", "__init__.py"), "w") as f:
            f.write("raise ImportError('half removed')\n")
        rc, out, err = run("print('alive')", env={VARIABLE: "1", "PYTHONPATH": broken})
        assert (rc, out.strip(), err) == (0, "alive", "")
        with open(os.path.join(broken, "urllib_parse_backport", "__init__.py"), "w") as f:
            f.write("this is not python\n")
        rc, out, err = run("print('alive')", env={VARIABLE: "1", "PYTHONPATH": broken})
        assert (rc, out.strip(), err) == (0, "alive", "")
    finally:
        shutil.rmtree(broken)


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
