"""``CPYTHON_SECURITY_PATCH``: every fix of the registry from one variable, in fresh interpreters.

Each case runs a fresh interpreter of the test environment, where the wheel
(and so every ``.pth`` file) is installed. What "needed" means on this
interpreter is read from each package's own ``status()`` in a process
without any variable. Last, the umbrella alone makes ``cpython-security-check``
say "safe".
"""

import json
import os
import sys

import pytest

from fresh_interpreter import run, run_code
from implementation import IS_CPYTHON
from internals import PACKAGES, shared_registry

pytestmark = pytest.mark.skipif(not IS_CPYTHON, reason="PyPy: ctypes_safe has no fix to apply "
                                "there, and the umbrella's expectations are CPython's")

PARSER = "urlparse" if sys.version_info[0] == 2 else "urllib.parse"
COOKIES = "Cookie" if sys.version_info[0] == 2 else "http.cookies"

APP = """
import json, sys
import %(parser)s as parser, ctypes, %(cookies)s as cookies
print(json.dumps({
    "loaded": sorted(name for name in %(packages)r if name in sys.modules),
    "imported": sorted(package for package, modules in %(triggers)r
                       if any(module in sys.modules for module in modules)),
    "parse_qs": parser.parse_qs("a=1;b=2"),
    "repr": repr(ctypes.c_double.from_param(1.5)),  # 1e300 would crash an unfixed 2.7
    "unquote": [cookies._unquote.__module__, cookies._unquote('"\\\\\\\\\\\\042"')],
    "hostname": parser.urlparse(" https://evil.example/x").hostname,
}))
""" % {"parser": PARSER, "cookies": COOKIES, "packages": PACKAGES,
       # each package's stdlib modules: the switch loads it only once one is imported
       "triggers": [(package, sorted(set(name for fix in shared_registry.fixes_of(package)
                                         for name in fix.probes))) for package in PACKAGES]}

NEEDED = """
import json
found = {}
for name in %r:
    package = __import__(name)
    info = package.status()
    if "fixes" in info:  # the stdlib's parsers: frameworks wait for "frameworks"
        found[name] = any(entry["lacks"] for entry in info["fixes"].values())
    else:
        found[name] = info["vulnerable"]
    found.update((cve, entry["lacks"]) for cve, entry in info.get("fixes", {}).items())
print(json.dumps(found))
""" % (PACKAGES,)


def needed():
    code, out, err = run_code(NEEDED)
    assert (code, err) == (0, "")
    return json.loads(out)


def app(**environ):
    code, out, err = run_code(APP, **environ)
    assert code == 0, err
    return json.loads(out), err


def test_one_variable_fixes_all_three_in_one_process_and_loads_only_what_is_needed():
    result, err = app(CPYTHON_SECURITY_PATCH="1")
    assert err == ""
    assert result["parse_qs"] == {"a": ["1;b=2"]}
    assert result["repr"] == "<cparam 'd' (1.5)>"
    assert result["unquote"][1] == '\\"'
    assert result["hostname"] == "evil.example"  # CVE-2023-24329: 2.7 and 3.6 lack it
    wanted = needed()
    assert result["loaded"] == sorted(name for name in PACKAGES
                                      if wanted[name] and name in result["imported"])
    assert (result["unquote"][0] == "http_cookies_backport._unquote") is \
        wanted["CVE-2024-7592"]


def test_a_fix_is_left_out_by_name():
    result, err = app(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="http_cookies_backport")
    assert err == "" and "http_cookies_backport" not in result["loaded"]
    assert result["unquote"][0] == COOKIES


def test_the_skip_list_wins_over_a_package_variable_and_takes_cves():
    result, err = app(HTTP_COOKIES_BACKPORT_PATCH="1", CPYTHON_SECURITY_SKIP="CVE-2024-7592")
    assert err == "" and result["unquote"][0] == COOKIES  # the package's other fixes apply
    result, err = app(HTTP_COOKIES_BACKPORT_PATCH="1", CPYTHON_SECURITY_SKIP="cve-2024-7952")
    assert err.startswith("cpython_security: CPYTHON_SECURITY_SKIP='cve-2024-7952': unknown "
                          "name cve-2024-7952 (the names are ")
    assert err.endswith("); it leaves nothing out\n")
    assert "CVE-2024-7592" in err and len(err.splitlines()) == 1


def test_an_unknown_name_in_the_skip_list_is_named_and_the_known_ones_still_apply():
    result, err = app(CPYTHON_SECURITY_PATCH="1",
                      CPYTHON_SECURITY_SKIP="CVE-2025-938,CVE-2023-24329")
    assert err.startswith("cpython_security: CPYTHON_SECURITY_SKIP='CVE-2025-938,"
                          "CVE-2023-24329': unknown name CVE-2025-938 (the names are ")
    assert err.endswith("); it still leaves out CVE-2023-24329\n") and "ignoring" not in err
    # CVE-2023-24329 is left out: an interpreter that lacks its fix (2.7.18,
    # 3.6.15, 3.7.16) keeps the blank, and loses the host, as it does unpatched.
    assert result["hostname"] == stock_hostname()


def stock_hostname():
    """``urlparse(" https://evil.example/x").hostname`` of this interpreter's own
    stdlib, in a process where no start-up switch is set."""
    import os
    import subprocess
    code = ("try:\n    from urllib.parse import urlparse\nexcept ImportError:\n"
            "    from urlparse import urlparse\n"
            "print(urlparse(' https://evil.example/x').hostname)")
    switches = ("CPYTHON_SECURITY", "URLLIB_PARSE_BACKPORT", "CTYPES_SAFE",
                "HTTP_COOKIES_BACKPORT", "PYTHON_URLLIB_QS_SEPARATOR")
    env = dict((name, value) for name, value in os.environ.items()
               if not name.startswith(switches))
    out = subprocess.check_output([sys.executable, "-c", code], env=env)
    out = out.decode("ascii").strip()
    return None if out == "None" else out


def test_a_package_variable_set_decides_for_its_package():
    result, err = app(CPYTHON_SECURITY_PATCH="1", HTTP_COOKIES_BACKPORT_PATCH="0")
    assert err == "" and result["unquote"][0] == COOKIES
    result, err = app(CPYTHON_SECURITY_PATCH="0", HTTP_COOKIES_BACKPORT_PATCH="force")
    assert err == "" and result["unquote"][0] == "http_cookies_backport._unquote"


def test_a_bad_value_is_named_and_nothing_is_patched():
    result, err = app(CPYTHON_SECURITY_PATCH="al")
    assert result["loaded"] == []
    assert err == ("cpython_security: ignoring CPYTHON_SECURITY_PATCH='al': accepted values "
                   "are 1/true/yes/on (patch) or 0/false/no/off/empty (nothing); nothing was "
                   "patched\n")


def test_a_skip_list_typo_is_named_and_leaves_nothing_out():
    result, err = app(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP="ctypes")
    assert err.startswith("cpython_security: CPYTHON_SECURITY_SKIP='ctypes': unknown name "
                          "ctypes (the names are ctypes_safe, ")
    assert result["repr"] == "<cparam 'd' (1.5)>"


LOADED = ("import json, sys\n"
          "print(json.dumps(sorted(n for n, m in sys.modules.items() if m is not None)))")


def test_a_process_that_imports_no_target_loads_only_the_start_up_switch():
    code, out, err = run_code(LOADED)
    code, out_with, err = run_code(LOADED, CPYTHON_SECURITY_PATCH="1")
    assert (code, err) == (0, "")
    assert set(json.loads(out_with)) - set(json.loads(out)) == set([
        "_cpython_security", "_cpython_security._deferred", "_cpython_security._import_hook",
        "_cpython_security._table"])


SCRIPT = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")


def test_the_check_is_safe_under_the_umbrella_alone(tmpdir):
    # python-future hidden: tests/test_stdlib_copies.py has what the check says of its copies.
    from test_security_check import without_copies
    code, out, err = run([SCRIPT], CPYTHON_SECURITY_PATCH="1", PYTHONPATH=without_copies(tmpdir))
    assert code == 0, out + err
    assert out.splitlines()[0] == "verdict: safe"
