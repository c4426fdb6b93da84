"""Converter mode, the fallback of ctypes_safe.patch(): ``from_param`` of the affected simple
types returns repr-safe objects (bpo-42938). Reached here by making slot mode's check fail."""

import ctypes
import ctypes.util
from ctypes import c_char, c_double, c_float, c_int, c_long, c_void_p

import pytest

import ctypes_helpers as helpers
import ctypes_safe
from ctypes_safe import SafeCArg

CArg = type(c_int.from_param(0))


def _libm():
    for lib in (ctypes.CDLL(None), ctypes.CDLL(ctypes.util.find_library("m"))):
        try:
            lib.fabs
            return lib
        except AttributeError:
            pass
    raise RuntimeError("no fabs")


LIBM = _libm()
LIBC = ctypes.CDLL(ctypes.util.find_library("c"))


def fabs(argtypes=(c_double,)):
    function = LIBM["fabs"]  # a fresh function object: its converters are taken now
    function.restype = c_double
    if argtypes is not None:
        function.argtypes = list(argtypes)
    return function


def labs(argtypes=(c_long,)):
    function = LIBC["labs"]
    function.restype = c_long
    if argtypes is not None:
        function.argtypes = list(argtypes)
    return function


@pytest.fixture(autouse=True)
def converter_mode():
    """Every patch() in this module falls back to converter mode; nothing patched afterwards."""
    undo = helpers.disable_slot_mode()
    try:
        yield
    finally:
        ctypes_safe.unpatch()
        undo()


@pytest.fixture
def forced():
    report = ctypes_safe.patch(force=True)
    assert report.mode == "converter"
    return report


def test_policy_which_results_are_wrapped(forced):
    fast = c_double.from_param(2.5)
    assert isinstance(fast, c_double) and fast.value == 2.5 and repr(fast) == "<cparam 'd' (2.5)>"
    assert repr(c_float.from_param(0.1)) == "<cparam 'f' (0.10000000149011612)>"
    assert isinstance(c_double.from_param(3), c_double)  # exact ints take the fast path too

    class Half(float):
        pass

    assert type(c_double.from_param(Half(0.5))) is SafeCArg  # anything else: stock + wrapper
    assert type(c_double.from_param(True)) is SafeCArg
    assert type(c_char.from_param(b"a")) is SafeCArg
    assert type(c_void_p.from_param(0)) is SafeCArg  # NULL prints differently on 2.7
    assert type(c_void_p.from_param(5)) is CArg  # same text everywhere: no wrapper
    assert type(c_void_p.from_param(b"xy")) is CArg
    assert type(c_int.from_param(5)) is CArg  # not a target
    assert repr(c_double.__ctype_be__.from_param(1e300)) == "<cparam 'd' (1e+300)>"


def test_subclasses_of_targets_are_protected(forced):
    class MyDouble(c_double):
        pass

    result = MyDouble.from_param(1e300)
    assert type(result) is SafeCArg and repr(result) == "<cparam 'd' (1e+300)>"
    instance = MyDouble(1.0)
    assert MyDouble.from_param(instance) is instance
    with pytest.raises(TypeError):
        MyDouble.from_param(c_double(1.0))  # stock: not an instance of MyDouble


def test_errors_are_unchanged(forced):
    for ctype, value in ((c_double, "x"), (c_double, 10 ** 400), (c_float, 10 ** 400),
                         (c_char, 1.5), (c_void_p, 1.5), (c_float, None)):
        with pytest.raises(Exception) as patched:
            ctype.from_param(value)
        ctypes_safe.unpatch()
        try:
            with pytest.raises(Exception) as stock:
                ctype.from_param(value)
        finally:
            ctypes_safe.patch(force=True)
        assert type(patched.value) is type(stock.value)
        assert str(patched.value) == str(stock.value)


def test_patched_from_param_accepts_the_safe_objects():
    safe = ctypes_safe.from_param(c_double, -2.5)
    assert type(safe) is SafeCArg
    with pytest.raises((TypeError, ctypes.ArgumentError)):
        fabs()(safe)  # stock converters reject a wrapped CArgObject ("wrong type")
    ctypes_safe.patch(force=True)
    assert c_double.from_param(safe) is safe
    assert fabs()(safe) == 2.5
    assert fabs()(c_double.from_param(-1e300)) == 1e300
    with pytest.raises(TypeError):
        c_double.from_param(ctypes_safe.from_param(c_int, 3))  # a different tag: stock error
    pointer = ctypes_safe.from_param(c_void_p, b"xy")
    assert c_void_p.from_param(pointer) is pointer


def test_foreign_calls_before_during_and_after_the_patch():
    declared_before = fabs()
    labs_before = labs()
    no_argtypes = fabs(argtypes=None)
    values = [-2.5, 2.5, -1e300, 0.0, -0.0]

    def run(patched):
        for x in values:
            assert declared_before(x) == abs(x)
            assert fabs()(x) == abs(x)
            assert no_argtypes(c_double(x)) == abs(x)
            assert no_argtypes(c_double.from_param(x)) == abs(x)
            assert no_argtypes(ctypes_safe.from_param(c_double, x)) == abs(x)
            if patched:
                assert fabs()(c_double.from_param(x)) == abs(x)
                assert fabs()(ctypes_safe.from_param(c_double, x)) == abs(x)
            else:  # stock converters never take a CArgObject, bare or wrapped ("wrong type")
                for argument in (c_double.from_param(x), ctypes_safe.from_param(c_double, x)):
                    with pytest.raises(ctypes.ArgumentError):
                        fabs()(argument)
        assert fabs()(-3) == 3.0
        assert labs_before(-7) == labs()(-7) == 7
        assert labs(argtypes=None)(ctypes_safe.from_param(c_long, -7)) == 7

    run(patched=False)
    assert ctypes_safe.patch(force=True).mode == "converter"
    run(patched=True)
    assert declared_before(c_double.from_param(-4.0)) == 4.0  # a real c_double
    ctypes_safe.unpatch()
    run(patched=False)


def test_pointer_arguments_through_a_foreign_call(forced):
    strlen = LIBC["strlen"]
    strlen.restype = ctypes.c_size_t
    strlen.argtypes = [c_void_p]
    assert strlen(b"four") == 4
    assert strlen(ctypes_safe.from_param(c_void_p, b"five!")) == 5
    memset = LIBC["memset"]
    memset.restype = c_void_p
    memset.argtypes = [c_void_p, c_int, ctypes.c_size_t]
    buffer = ctypes.create_string_buffer(4)
    assert memset(buffer, 65, 3) == ctypes.addressof(buffer)
    assert buffer.raw == b"AAA\x00"
    assert memset(0, 0, 0) is None  # NULL through the wrapped path


def test_an_earlier_patch_by_someone_else_is_chained_and_restored():
    def theirs(cls, value):
        return ctypes.c_double.__class__.__dict__["from_param"](cls, value * 2)

    mine = classmethod(theirs)
    c_double.from_param = mine
    try:
        ctypes_safe.patch(force=True)
        assert repr(c_double.from_param(3)) == "<cparam 'd' (6.0)>"
        ctypes_safe.unpatch()
        assert c_double.__dict__["from_param"] is mine
    finally:
        ctypes_safe.unpatch()
        del c_double.from_param


def test_a_replacement_rewritten_by_someone_else_is_not_clobbered(forced):
    later = classmethod(lambda cls, value: value)
    c_char.from_param = later
    try:
        assert ctypes_safe.is_patched()  # patch() changed things unpatch() has not undone
        assert ctypes_safe.status()["exposed"] is False  # the other replacements still work
        report = ctypes_safe.unpatch()
        assert report.skipped == [("ctypes.c_char.from_param",
                                   "rebound by someone else since patch(): left in place")]
        assert "ctypes.c_char.from_param" not in report.changed and len(report.changed) == 5
        assert c_char.__dict__["from_param"] is later
    finally:
        del c_char.from_param
    assert "from_param" not in c_double.__dict__
    assert type(c_void_p.__dict__["from_param"]).__name__ == "classmethod_descriptor"
