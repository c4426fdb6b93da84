"""CVE-2021-3177 end to end, each case in a fresh interpreter: the stock repr kills 2.7.18;
patched (slot mode or converter mode) and the safe objects print fixed CPython's repr
(bpo-42938). On 3.x the patch is forced, since those interpreters are fixed."""

import json
import struct

import pytest

import ctypes_helpers as helpers

MAX = helpers.MAX_DOUBLE
# The first overflowing double is the one after 1e233 (1e233 itself writes exactly 256
# bytes); negative values overflow from -1e232 down. The old repr writes 16 bytes
# around the '%f' text into a 256-byte buffer, so it overflows once that text
# passes 240 characters: 234 integer digits for x >= 10**233, 233 digits plus
# the '-' for x <= -10**232.
FIRST_OVERFLOWING = 1.0000000000000002e+233
OVERFLOWING = [FIRST_OVERFLOWING, 1e241, 1e300, MAX, -1e232, -1e300, -MAX]
CRASHING = [1e300, MAX, -1e300]  # 2.7.18 here: SIGSEGV (smaller overflows may go unnoticed)


def fixed_text(x):
    return "<cparam 'd' (%r)>" % x


def test_the_threshold_values_are_what_the_docs_say():
    bits = struct.unpack("<q", struct.pack("<d", 1e233))[0]
    assert FIRST_OVERFLOWING == struct.unpack("<d", struct.pack("<q", bits + 1))[0]  # next double
    assert len("<cparam 'd' (%f)>" % 1e233) + 1 == 256  # + NUL: fits exactly
    assert len("<cparam 'd' (%f)>" % FIRST_OVERFLOWING) + 1 == 257
    assert len("<cparam 'd' (%f)>" % -1e232) + 1 == 257


@pytest.mark.parametrize("x", CRASHING)
@pytest.mark.parametrize("kind", ["c_double", "user"])
def test_stock_repr(kind, x):
    code, out, _ = helpers.child(["repr", kind, repr(x), "stock"])
    if helpers.FIXED:
        assert code == 0 and json.loads(out)["repr"] == fixed_text(x)
    else:
        assert code < 0  # killed by a signal: the vulnerability, for a user type as well


@pytest.mark.parametrize("x", OVERFLOWING)
def test_slot_mode(x):
    mode = "slot" if helpers.FIXED else "auto"  # 2.7.18: patch() itself picks slot mode
    result = helpers.child_json(["repr", "c_double", repr(x), mode])
    assert result["mode"] == "slot"
    assert result["repr"] == result["str"] == result["dunder"] == fixed_text(x)


@pytest.mark.parametrize("x", [1e300, -MAX])
def test_slot_mode_reaches_user_simplecdata_types(x):
    # class D(ctypes._SimpleCData): _type_ = 'd' -- its from_param is the C metaclass's.
    result = helpers.child_json(["repr", "user", repr(x), "slot"])
    assert result["repr"] == result["str"] == result["dunder"] == fixed_text(x)


@pytest.mark.parametrize("x", [FIRST_OVERFLOWING, 1e300, -1e232, MAX])
def test_converter_mode(x):
    result = helpers.child_json(["repr", "c_double", repr(x), "converter"])
    assert result["mode"] == "converter"
    assert result["repr"] == result["str"] == fixed_text(x)


def test_converter_mode_does_not_reach_user_simplecdata_types():
    # The documented limit of the fallback mode: the metaclass's from_param is C.
    code, out, _ = helpers.child(["repr", "user", "1e300", "converter"])
    if helpers.FIXED:
        assert code == 0 and json.loads(out)["repr"] == fixed_text(1e300)
    else:
        assert code < 0


def test_unpatch_brings_back_the_stock_repr():
    result = helpers.child_json(["unpatched", "1.5"])
    assert result["mode"] == "slot" and not result["patched"]
    assert result["restored"] == ["_ctypes.CArgObject.tp_repr", "_ctypes.CArgObject.__repr__"]
    stock = "<cparam 'd' (1.5)>" if helpers.FIXED else "<cparam 'd' (1.500000)>"
    assert result["repr"] == result["str"] == result["dunder"] == stock


def test_import_is_cheap_and_changes_nothing():
    result = helpers.child_json(["imports"])
    assert result["unchanged"] and not result["patched"]
    # Its own modules, and what it shares with the other fix packages.
    assert all(name.startswith(("ctypes_safe", "_cpython_security"))
               for name in result["loaded"]), result["loaded"]
