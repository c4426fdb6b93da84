"""Start-up activation: ``CTYPES_SAFE_PATCH`` and the installed ``cpython_security_patch.pth``,
in fresh interpreters (CVE-2021-3177, bpo-42938)."""

import json
import os

import pytest

import ctypes_helpers as helpers
from fresh_interpreter import run_code

SLOT = ["_ctypes.CArgObject.tp_repr", "_ctypes.CArgObject.__repr__"]


def startup(value, variable=None):
    return helpers.child(["startup", value],
                         None if variable is None else {"CTYPES_SAFE_PATCH": variable})


@pytest.mark.parametrize("variable", ["1", "true", " YES ", "on"])
def test_on_patches_before_any_code_runs(variable):
    # On 2.7.18 the stock repr of 1e300 kills the process: it survives only if patched.
    code, out, err = startup("1e300", variable)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["repr"] == "<cparam 'd' (1e+300)>"
    # Imported when ctypes was, and only where the stock repr needs the fix.
    assert result["imported_at_startup"] is not helpers.FIXED
    if helpers.FIXED:
        assert not result["patched"] and result["report"] is None  # already fixed
    else:
        assert result["patched"] and result["report"]["changed"] == SLOT


def test_force_patches_a_fixed_interpreter_too():
    code, out, err = startup("1e300", "force")
    result = json.loads(out)
    assert (code, err) == (0, "") and result["patched"]
    assert result["report"] == {"forced": True, "changed": SLOT, "skipped": [], "mode": "slot"}


@pytest.mark.parametrize("variable", [None, "", "0", "off", "No"])
def test_unset_empty_or_off_patches_nothing(variable):
    code, out, err = startup("1.5", variable)
    result = json.loads(out)
    assert (code, err) == (0, "")
    assert not result["patched"] and not result["imported_at_startup"]


def test_a_typo_says_so_in_one_line_and_patches_nothing():
    code, out, err = startup("1.5", "ture")
    assert code == 0 and not json.loads(out)["patched"]
    assert err.splitlines() == [
        "ctypes_safe: ignoring CTYPES_SAFE_PATCH='ture': accepted values are 1/true/yes/on, "
        "force (patch) or 0/false/no/off/empty (nothing); nothing was patched"]


def test_an_exception_during_activation_is_one_line_and_the_process_goes_on(tmpdir):
    # A broken package ahead on sys.path, as after an interrupted uninstall: the
    # failure shows the moment ctypes is imported, and the process goes on.
    package = os.path.join(str(tmpdir), "ctypes_safe")
    os.mkdir(package)
    with open(os.path.join(package, "__init__.py"), "w") as handle:
        handle.write("raise RuntimeError('broken on purpose')\n")
    code, out, err = run_code("print('started'); import ctypes; print('alive')",
                              CTYPES_SAFE_PATCH="force", PYTHONPATH=str(tmpdir))
    assert (code, out.split()) == (0, ["started", "alive"])
    assert err.splitlines() == ["ctypes_safe: start-up activation failed: cannot import "
                                "ctypes_safe: RuntimeError: broken on purpose; nothing of it "
                                "was patched: repair the install: pip install "
                                "--force-reinstall cpython-security-backports"]


NOT_IMPORTED = """
import json, sys
before = sorted(name for name in ("ctypes", "ctypes_safe", "logging", "threading")
                if name in sys.modules)
import ctypes
after = "ctypes_safe" in sys.modules and sys.modules["ctypes_safe"].is_patched()
print(json.dumps([before, after, repr(ctypes.c_double.from_param(1e300))]))
"""


@pytest.mark.parametrize("variable", ["1", "force"])
def test_ctypes_is_not_imported_at_start_up_and_is_patched_when_imported(variable):
    # On 2.7.18 the stock repr of 1e300 kills the process: it survives only if patched.
    code, out, err = run_code(NOT_IMPORTED, CTYPES_SAFE_PATCH=variable)
    assert (code, err) == (0, "")
    before, patched, text = json.loads(out)
    assert before == []
    assert patched is (variable == "force" or not helpers.FIXED)
    assert text == "<cparam 'd' (1e+300)>"


def test_a_typo_is_reported_at_start_up_without_ctypes():
    code, out, err = run_code("import sys; print('ctypes' in sys.modules)",
                              CTYPES_SAFE_PATCH="ture")
    assert (code, out.strip()) == (0, "False")
    assert len(err.splitlines()) == 1 and "ignoring CTYPES_SAFE_PATCH='ture'" in err


SLOT_MODE_ONLY = """
import json, sys
import ctypes
import ctypes_safe
print(json.dumps([ctypes_safe.patch().mode,
                  sorted(name for name in sys.modules if name.startswith("ctypes_safe."))]))
"""


def test_slot_mode_at_start_up_never_loads_converter_mode():
    # Converter mode is the fallback when a slot check fails: its module is
    # imported only then, one module fewer in every process the switch patches.
    code, out, err = run_code(SLOT_MODE_ONLY, CTYPES_SAFE_PATCH="force")
    assert (code, err) == (0, "")
    mode, loaded = json.loads(out)
    assert mode == "slot"
    assert "ctypes_safe._slot" in loaded and "ctypes_safe._converter" not in loaded
