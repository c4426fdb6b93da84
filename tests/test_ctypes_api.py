"""ctypes_safe.patch()/unpatch()/is_patched(): explicit, reversible, idempotent (bpo-42938)."""

import ctypes
import ctypes.util
import threading
from ctypes import c_char, c_double, c_float, c_int, c_long, c_void_p

import pytest

import ctypes_helpers as helpers
import ctypes_safe
from ctypes_safe import SafeCArg

CArg = type(c_int.from_param(0))
TARGETS = [c_double, c_double.__ctype_be__, c_double.__ctype_le__, c_float,
           c_float.__ctype_be__, c_float.__ctype_le__, c_char, c_void_p]
ABSENT = object()


def entries():
    return [t.__dict__.get("from_param", ABSENT) for t in TARGETS]


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


@pytest.fixture
def forced():
    """The shim installed (forced where the interpreter is fixed), always removed afterwards."""
    before = entries()
    report = ctypes_safe.patch(force=True)
    assert report.active
    try:
        yield report
    finally:
        ctypes_safe.unpatch()
        assert entries() == before  # exact originals back (identity), even if a test failed


def test_import_changed_nothing_and_nothing_is_patched():
    assert not ctypes_safe.is_patched()
    assert "from_param" not in c_double.__dict__
    assert type(c_void_p.__dict__["from_param"]).__name__ == "classmethod_descriptor"


def test_patch_without_force_follows_the_detection():
    before = entries()
    report = ctypes_safe.patch()
    try:
        assert report.vulnerable == ctypes_safe.is_vulnerable() == (not helpers.FIXED)
        assert report.active == report.changed == ctypes_safe.is_patched() == report.vulnerable
        if not report.vulnerable:
            assert entries() == before  # a fixed interpreter is left alone
    finally:
        ctypes_safe.unpatch()
    assert entries() == before


def test_patch_unpatch_identity_and_idempotence():
    before = entries()
    first = ctypes_safe.patch(force=True)
    assert first.changed and first.active and ctypes_safe.is_patched()
    assert set(first.types) == {t.__name__ for t in TARGETS}
    during = entries()
    assert all(a is not b for a, b in zip(before, during))
    second = ctypes_safe.patch(force=True)
    assert not second.changed and second.active
    assert entries() == during  # nothing re-installed
    assert all(x is y for x, y in zip(entries(), during))
    removed = ctypes_safe.unpatch()
    assert removed.changed and not removed.active and not ctypes_safe.is_patched()
    assert all(x is y for x, y in zip(entries(), before))
    assert not ctypes_safe.unpatch().changed
    assert "from_param" not in c_double.__dict__  # inherited from the metaclass again


def test_concurrent_patch_and_unpatch_leave_a_consistent_state():
    before = entries()
    errors = []

    def worker(n):
        try:
            for _ in range(50):
                report = ctypes_safe.patch(force=True) if n % 2 else ctypes_safe.unpatch()
                assert report.active == bool(report.types)
        except Exception as error:  # collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    if ctypes_safe.is_patched():
        assert all(e is not b for e, b in zip(entries(), before))
    ctypes_safe.unpatch()
    assert all(x is y for x, y in zip(entries(), before))


def test_patched_reprs_are_the_fixed_ones(forced):
    golden = helpers.golden()
    checked = 0
    for name, kind, raw in helpers.cases():
        expected = golden.get(helpers.key(name, kind, raw))
        if expected is None:
            continue
        ctype = getattr(ctypes, name)
        try:
            result = ctype.from_param(helpers.value(kind, raw))
        except Exception:
            continue
        if type(result) is CArg:
            # Bare CArgObjects only where the stock text is already the fixed one.
            assert ctype not in (c_double, c_float, c_char)
            assert ctype is not c_void_p or "(nil)" not in expected
        assert repr(result) == expected, (name, kind, raw)
        checked += 1
    assert checked > 400


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
        fabs()(safe)  # stock converters reject a wrapped CArgObject (FACTS D.7)
    ctypes_safe.patch(force=True)
    try:
        assert c_double.from_param(safe) is safe
        assert fabs()(safe) == 2.5
        assert fabs()(c_double.from_param(-1e300)) == 1e300
        with pytest.raises(TypeError):
            c_double.from_param(ctypes_safe.from_param(c_int, 3))  # a different tag: stock error
        pointer = ctypes_safe.from_param(c_void_p, b"xy")
        assert c_void_p.from_param(pointer) is pointer
    finally:
        ctypes_safe.unpatch()


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
            else:  # stock converters never take a CArgObject, bare or wrapped (FACTS D.7)
                for argument in (c_double.from_param(x), ctypes_safe.from_param(c_double, x)):
                    with pytest.raises(ctypes.ArgumentError):
                        fabs()(argument)
        assert fabs()(-3) == 3.0
        assert labs_before(-7) == labs()(-7) == 7
        assert labs(argtypes=None)(ctypes_safe.from_param(c_long, -7)) == 7

    run(patched=False)
    ctypes_safe.patch(force=True)
    try:
        run(patched=True)
        assert declared_before(c_double.from_param(-4.0)) == 4.0  # a real c_double
    finally:
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


def test_an_overwritten_replacement_is_not_clobbered_by_unpatch():
    ctypes_safe.patch(force=True)
    later = classmethod(lambda cls, value: value)
    c_char.from_param = later
    try:
        assert not ctypes_safe.is_patched()
        ctypes_safe.unpatch()
        assert c_char.__dict__["from_param"] is later
    finally:
        del c_char.from_param
        ctypes_safe.unpatch()
    assert "from_param" not in c_double.__dict__
