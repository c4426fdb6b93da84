"""Start-up activation: ``CTYPES_SAFE_PATCH`` and the installed ``ctypes_safe_patch.pth``, in
fresh interpreters (CVE-2021-3177, bpo-42938)."""

import json
import os

import pytest

import ctypes_helpers as helpers

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
    assert result["repr"] == "<cparam 'd' (1e+300)>" and result["imported_at_startup"]
    if helpers.FIXED:
        assert not result["patched"] and result["report"] is None  # already fixed
    else:
        assert result["patched"] and result["report"]["changed"] == SLOT


def test_force_patches_a_fixed_interpreter_too():
    code, out, err = startup("1e300", "force")
    result = json.loads(out)
    assert (code, err) == (0, "") and result["patched"]
    assert result["report"] == {"forced": True, "changed": SLOT, "skipped": [], "mode": "slot"}


@pytest.mark.parametrize("variable,imported", [(None, False), ("", False), ("0", True),
                                               ("off", True), ("No", True)])
def test_unset_empty_or_off_patches_nothing(variable, imported):
    code, out, err = startup("1.5", variable)
    result = json.loads(out)
    assert (code, err) == (0, "")
    assert not result["patched"] and result["imported_at_startup"] is imported


def test_a_typo_says_so_in_one_line_and_patches_nothing():
    code, out, err = startup("1.5", "ture")
    assert code == 0 and not json.loads(out)["patched"]
    assert err.splitlines() == [
        "ctypes_safe: ignoring CTYPES_SAFE_PATCH='ture': accepted values are 1/true/yes/on, "
        "force (patch) or 0/false/no/off/empty (nothing); nothing was patched"]


def test_an_exception_during_activation_is_one_line_and_the_process_goes_on(tmpdir):
    # patch() imports logging first; a broken one ahead on sys.path makes it raise.
    where = str(tmpdir)
    with open(os.path.join(where, "logging.py"), "w") as handle:
        handle.write("raise RuntimeError('logging is broken here')\n")
    environ = {"CTYPES_SAFE_PATCH": "1", "PYTHONPATH": where}
    code, out, err = helpers.child(["startup", "1.5"], environ)
    assert code == 0 and not json.loads(out)["patched"]
    assert err.splitlines() == ["ctypes_safe: start-up activation failed: RuntimeError: "
                                "logging is broken here"]
