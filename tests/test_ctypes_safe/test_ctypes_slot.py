"""Slot mode of ctypes_safe.patch(): the repr of the parameter type itself is fixed CPython's
(bpo-42938); nothing on the call path changes; every check refuses rather than guesses."""

import ctypes
import ctypes.util
from ctypes import c_double, c_float, c_int, c_long

import pytest

import ctypes_helpers as helpers

CArg = type(c_int.from_param(0))


class UserDouble(ctypes._SimpleCData):
    _type_ = "d"


@pytest.fixture
def slot_mode(ctypes_unpatched):
    report = ctypes_unpatched.patch(force=True)
    assert report.mode == "slot"  # before anything that would overflow on 2.7
    return report


def test_every_parameter_object_prints_the_fixed_repr(slot_mode):
    for value in (1e300, -helpers.MAX_DOUBLE, 1e233, 1.5):
        expected = "<cparam 'd' (%r)>" % value
        for carg in (c_double.from_param(value), UserDouble.from_param(value),
                     c_double.__ctype_be__.from_param(value)):
            assert type(carg) is CArg
            assert repr(carg) == str(carg) == carg.__repr__() == "%s" % (carg,) == expected
    assert repr(c_float.from_param(0.1)) == "<cparam 'f' (0.10000000149011612)>"
    target = c_int(3)
    assert repr(ctypes.byref(target)) == "<cparam 'P' (0x%x)>" % ctypes.addressof(target)
    assert repr(ctypes.byref(target, 4)) == "<cparam 'P' (0x%x)>" % (ctypes.addressof(target) + 4)


def test_results_and_foreign_calls_are_stock(slot_mode):
    # Nothing on the call path changes: the same types, the same converters.
    result = c_double.from_param(2.5)
    assert type(result) is CArg and not isinstance(result, c_double)
    assert "from_param" not in c_double.__dict__
    libm = ctypes.CDLL(ctypes.util.find_library("m"))
    for name, argtype, restype, value in (("fabs", c_double, c_double, -2.5),
                                          ("fabsf", c_float, c_float, -1.5)):
        function = libm[name]
        function.argtypes, function.restype = [argtype], restype
        assert function(value) == -value
    labs = ctypes.CDLL(ctypes.util.find_library("c"))["labs"]
    labs.argtypes, labs.restype = [c_long], c_long
    assert labs(-7) == 7
    with pytest.raises(ctypes.ArgumentError):
        labs(c_double.from_param(1.0))  # stock converters never take a bare CArgObject


def test_calling_the_repr_with_another_object_raises_the_stock_error(ctypes_unpatched):
    with pytest.raises(TypeError) as stock:
        CArg.__dict__["__repr__"](5)
    ctypes_unpatched.patch(force=True)
    with pytest.raises(TypeError) as patched:
        CArg.__dict__["__repr__"](5)
    assert str(patched.value) == str(stock.value)


def test_threads_reprs_while_patching_and_unpatching():
    result = helpers.child_json(["threads", "300"])
    assert result["bad"] == [] and result["reprs"] >= 300 and not result["patched"]
    assert result["stock"] == ("<cparam 'd' (1.5)>" if helpers.FIXED else
                               "<cparam 'd' (1.500000)>")
    # Both reprs were seen: the readers ran while the repr changed under them.
    assert set(result["doubles"]) == {"<cparam 'd' (1.5)>", result["stock"]}


def test_a_failed_check_falls_back_to_converter_mode():
    result = helpers.child_json(["repr", "c_double", "1e300", "converter"])
    assert result["mode"] == "converter" and result["repr"] == "<cparam 'd' (1e+300)>"


@pytest.mark.parametrize("what,reason", [
    ("trace_refs", "slot check failed: unexpected object header of %d bytes"
                   % object.__basicsize__),
    ("foreign_repr", "slot check failed: tp_repr does not hold the repr the type was "
                     "created with"),
    ("free_threaded", "slot check failed: free-threaded build (Py_GIL_DISABLED, PEP 703): no "
                      "GIL orders the write of tp_repr against other threads' reads"),
])
def test_the_check_refuses_what_it_cannot_verify(what, reason):
    result = helpers.child_json(["pretend", what])
    assert result["mode"] == "converter"
    assert result["skipped"] == [["_ctypes.CArgObject.tp_repr", reason]]
    assert result["slot_untouched"]  # nothing was written before the check failed
    assert result["repr"] == "<cparam 'd' (1e+300)>"  # converter mode protects c_double


def test_a_slot_rewritten_by_someone_else_is_not_clobbered_by_unpatch():
    # Slot and dict entry are one unit: when either is no longer ours, both stay.
    result = helpers.child_json(["rebound"])
    assert result["mode"] == "slot" and result["left_alone"] and not result["patched"]
    assert result["changed"] == []
    assert result["skipped"] == [[name, "rebound by someone else since patch(): both left in "
                                  "place"] for name in ("_ctypes.CArgObject.tp_repr",
                                                        "_ctypes.CArgObject.__repr__")]
    assert result["repr"] == ("<cparam 'd' (1.5)>" if helpers.FIXED else
                              "<cparam 'd' (1.500000)>")
