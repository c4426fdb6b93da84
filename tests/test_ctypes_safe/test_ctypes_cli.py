"""``python -m ctypes_safe``: the self-check, its hints and its exit status (CVE-2021-3177)."""

import json
import sys

import ctypes_helpers as helpers

EXPOSED = not helpers.FIXED  # 2.7.18 is the one unfixed interpreter here


def run(*args, **environ):
    return helpers.child(args, environ, module="ctypes_safe")


def test_json_is_status():
    code, out, err = run("--json")
    info = json.loads(out)
    assert code == (1 if EXPOSED else 0), err
    assert (info["package"], info["cve"]) == ("ctypes_safe", "CVE-2021-3177")
    assert info["interpreter"]["version"] == "%d.%d.%d" % sys.version_info[:3]
    assert info["vulnerable"] is info["exposed"] is EXPOSED
    assert (info["patched"], info["report"], info["mode"], info["probe"]) == (
        False, None, None, None)
    assert info["activation"] == {"variable": "CTYPES_SAFE_PATCH", "value": None}


def test_text_report_unpatched():
    code, out, err = run()
    lines = out.splitlines()
    assert code == (1 if EXPOSED else 0), err
    assert [line for line in lines if line.startswith("verdict:")] == [
        "verdict:      EXPOSED: repr() of a ctypes double parameter can overflow the stack "
        "in this process" if EXPOSED else "verdict:      safe"]
    assert "fix active:   no" in lines
    hints = [line for line in lines if line.startswith("hint:")]
    assert hints == (["hint:         set CPYTHON_SECURITY_PATCH=1 (every fix) to patch at "
                      "start-up, or call ctypes_safe.patch()"] if EXPOSED else [])


def test_text_report_patched_at_startup():
    code, out, err = run(CTYPES_SAFE_PATCH="1")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[-1] == "verdict:      safe"
    assert not [line for line in lines if line.startswith("hint:")]  # nothing to suggest
    if EXPOSED:
        assert ("fix active:   yes, slot mode (_ctypes.CArgObject.tp_repr, "
                "_ctypes.CArgObject.__repr__)") in lines


def test_text_report_with_a_typo_in_the_variable():
    code, out, err = run(CTYPES_SAFE_PATCH="ture")
    assert len(err.splitlines()) == 1 and "CTYPES_SAFE_PATCH='ture'" in err
    hints = [line for line in out.splitlines() if line.startswith("hint:")]
    if EXPOSED:
        assert code == 1
        assert hints == ["hint:         CTYPES_SAFE_PATCH='ture' is not an accepted value: use "
                         "1/true/yes/on, force (patch) or 0/false/no/off/empty (nothing)"]
    else:
        assert code == 0 and hints == []


def test_text_report_names_a_misspelt_variable():
    code, out, err = run(CTYPE_SAFE_PATCH="1")
    hints = [line for line in out.splitlines() if line.startswith("hint:")]
    assert code == (1 if EXPOSED else 0) and err == ""
    assert hints[-1] == ("hint:         CTYPE_SAFE_PATCH is set, but this package does not "
                         "read it: did you mean CTYPES_SAFE_PATCH?")


def test_text_report_in_converter_mode():
    code, out, err = helpers.child(["cli", "converter"])
    assert json.loads(out.splitlines()[-1]) == {"exit": 0}, err
    assert ("hint:         converter mode (slot check failed: slot mode disabled by the test): "
            "a _SimpleCData subclass with _type_ 'd' of your own is not covered; use "
            "ctypes_safe.from_param() for it") in out.splitlines()


def test_probe():
    code, out, _ = run("--json", "--probe")
    probe = json.loads(out)["probe"]
    assert probe["crashed"] is EXPOSED and code == (1 if EXPOSED else 0)
    if EXPOSED:
        assert probe["signal"] in ("SIGSEGV", "SIGILL", "SIGBUS", "SIGABRT")
    else:
        assert (probe["returncode"], probe["output"]) == (0, "<cparam 'd' (1e+300)>")
    code, out, _ = run("--probe", CTYPES_SAFE_PATCH="1")  # the child patches at start-up too
    assert code == 0
    assert ("probe:        child exit 0: <cparam 'd' (1e+300)> "
            "(repr of c_double.from_param(1e300))") in out.splitlines()


def test_usage():
    code, out, _ = run("--help")
    assert code == 0 and out.startswith("usage: python -m ctypes_safe")
    code, _, err = run("--nope")
    assert code == 2 and "usage" in err


def test_probe_hint_when_only_this_process_is_patched():
    code, out, err = helpers.child(["cli", "slot", "--probe"])
    assert json.loads(out.splitlines()[-1]) == {"exit": 0}, err
    hints = [line for line in out.splitlines() if line.startswith("hint:")]
    assert hints == (["hint:         the probe's child, a fresh process, crashed: set "
                      "CTYPES_SAFE_PATCH=1 so that every process patches at start-up"]
                     if EXPOSED else [])
