"""CVE-2021-3177 end to end, each case in a child interpreter: the stock repr kills 2.7.18,
the safe and the patched paths print fixed CPython's repr (bpo-42938)."""

import json
import subprocess
import sys

import pytest

import ctypes_helpers as helpers

OVERFLOWING = [1e300, -1e300, helpers.MAX_DOUBLE]

STOCK = "import ctypes; print(repr(ctypes.c_double.from_param(%r)))"
SAFE = "import ctypes, ctypes_safe; print(repr(ctypes_safe.from_param(ctypes.c_double, %r)))"
PATCHED = ("import ctypes, ctypes_safe; report = ctypes_safe.patch(); assert report.active; "
           "print(repr(ctypes.c_double.from_param(%r)))")


def child(code):
    process = subprocess.Popen([sys.executable, "-c", code],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = process.communicate()
    return process.returncode, out.decode("ascii").strip(), err.decode("ascii", "replace")


@pytest.mark.parametrize("x", OVERFLOWING)
def test_stock_repr(x):
    code, out, _ = child(STOCK % x)
    if helpers.FIXED:
        assert (code, out) == (0, "<cparam 'd' (%r)>" % x)
    else:
        assert code < 0  # killed by a signal (SIGSEGV on this build): the vulnerability


@pytest.mark.parametrize("x", OVERFLOWING)
def test_safe_from_param(x):
    assert child(SAFE % x)[:2] == (0, "<cparam 'd' (%r)>" % x)


@pytest.mark.parametrize("x", OVERFLOWING)
def test_patched_from_param(x):
    code = PATCHED if not helpers.FIXED else PATCHED.replace("patch()", "patch(force=True)")
    assert child(code % x)[:2] == (0, "<cparam 'd' (%r)>" % x)


def test_patched_argtypes_converter_result():
    # A converter's result, repr'd as a debugger or a log line would.
    code = ("from __future__ import print_function; import ctypes, ctypes_safe; "
            "ctypes_safe.patch(force=True); "
            "fabs = ctypes.CDLL(None)['fabs']; fabs.argtypes = [ctypes.c_double]; "
            "fabs.restype = ctypes.c_double; conv = fabs.argtypes[0].from_param; "
            "print(repr(conv(1.7976931348623157e308)), fabs(-1e300))")
    assert child(code)[:2] == (0, "<cparam 'd' (1.7976931348623157e+308)> 1e+300")


def test_import_changes_nothing():
    code = ("import ctypes, json\n"
            "def state():\n"
            "    return [(n, repr(getattr(ctypes, n).__dict__.get('from_param')),\n"
            "             len(getattr(ctypes, n).__subclasses__())) for n in sorted(dir(ctypes))\n"
            "            if n.startswith('c_') and isinstance(getattr(ctypes, n), type)]\n"
            "before = state()\n"
            "import ctypes_safe, ctypes_safe.__main__\n"
            "print(json.dumps([before == state(), ctypes_safe.is_patched()]))\n")
    code_, out, err = child(code)
    assert code_ == 0, err
    assert json.loads(out) == [True, False]
