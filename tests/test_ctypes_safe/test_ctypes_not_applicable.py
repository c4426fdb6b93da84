"""Where there is no C repr to fix (PyPy), ctypes_safe says so and changes nothing.

PyPy's ctypes is written in Python: ``from_param`` returns a ``c_int``
instance whose repr is Python's, and CVE-2021-3177 concerns CPython's C
``PyCArg_repr``. The answer is found by structure, never by a version. On
CPython these tests check the other side: the package does not call itself
not applicable.
"""

import json

import pytest

from fresh_interpreter import run, run_code
from implementation import HAS_C_REPR

import ctypes_safe


def test_status_names_the_reason_only_where_there_is_no_c_repr():
    reason = ctypes_safe.status()["not_applicable"]
    if HAS_C_REPR:
        assert reason is None
    else:
        assert "no C PyCArg_repr" in reason
        assert ctypes_safe.is_vulnerable() is False


@pytest.mark.skipif(HAS_C_REPR, reason="CPython: patch() has a repr to fix")
def test_patch_is_a_no_op_that_says_why():
    import ctypes
    before = type(ctypes.c_double.from_param(1.5)).__repr__
    report = ctypes_safe.patch(force=True)
    assert report.changed == [] and not ctypes_safe.is_patched()
    assert [name for name, _ in report.skipped] == ["ctypes"]
    assert report.skipped[0][1].startswith("not applicable: ")
    assert type(ctypes.c_double.from_param(1.5)).__repr__ is before
    assert ctypes_safe.unpatch().changed == []


@pytest.mark.skipif(HAS_C_REPR, reason="CPython: the commands report a fix")
def test_the_commands_answer_not_applicable_with_exit_0():
    rc, out, err = run(["-m", "ctypes_safe"])
    assert rc == 0 and "not applicable" in out and "Traceback" not in err, err
    rc, out, err = run(["-m", "ctypes_safe", "--json"])
    assert rc == 0 and json.loads(out)["not_applicable"]
    rc, out, err = run(["-m", "_cpython_security._check", "--json"])  # 1: others exposed
    assert rc in (0, 1) and "Traceback" not in err, err
    row = json.loads(out)["ctypes_safe"]
    assert (row["cve"], row["exposed"], bool(row["not_applicable"])) == (
        "CVE-2021-3177", False, True)


SWITCHED_ON = """
import logging, sys
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(name)s %(message)s")
import ctypes
import ctypes_safe
print(ctypes_safe.is_patched())
"""


@pytest.mark.skipif(HAS_C_REPR, reason="CPython: the switch patches")
def test_the_switch_changes_nothing_and_logs_why():
    rc, out, err = run_code(SWITCHED_ON, CTYPES_SAFE_PATCH="1")
    assert rc == 0 and "Traceback" not in err, err
    assert out.strip().endswith("False")
    assert "not applicable" in out + err
