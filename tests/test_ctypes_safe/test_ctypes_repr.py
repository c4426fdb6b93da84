"""ctypes_safe.from_param: results and reprs identical to fixed CPython (bpo-42938)."""

import ctypes
import re
import sys
from ctypes import (c_bool, c_byte, c_char, c_char_p, c_double, c_float, c_int, c_long,
                    c_longdouble, c_longlong, c_short, c_ubyte, c_uint, c_ulong, c_ulonglong,
                    c_ushort, c_void_p, c_wchar, c_wchar_p)

import pytest

import ctypes_helpers as helpers
import ctypes_safe
from ctypes_safe import SafeCArg, from_param

CArg = type(c_int.from_param(0))


class TestParameterRepr(object):
    """Mirrors CPython's ``test_parameter_repr`` (Lib/test/test_ctypes/test_parameters.py, 3.13;
    Lib/ctypes/test/test_parameters.py since 3.9.2), run through ctypes_safe.from_param."""

    def check(self, ctype, value, expected):
        text = repr(from_param(ctype, value))
        assert re.match(expected, text), text

    def test_parameter_repr(self):
        self.check(c_bool, True, r"^<cparam '\?' at 0x[A-Fa-f0-9]+>$")
        # 2.7's c_char takes no int (and has no upstream test): b"a" there.
        assert repr(from_param(c_char, b"a" if helpers.PY2 else 97)) == "<cparam 'c' ('a')>"
        self.check(c_wchar, u"a", r"^<cparam 'u' at 0x[A-Fa-f0-9]+>$")
        assert repr(from_param(c_byte, 98)) == "<cparam 'b' (98)>"
        assert repr(from_param(c_ubyte, 98)) == "<cparam 'B' (98)>"
        assert repr(from_param(c_short, 511)) == "<cparam 'h' (511)>"
        assert repr(from_param(c_ushort, 511)) == "<cparam 'H' (511)>"
        self.check(c_int, 20000, r"^<cparam '[li]' \(20000\)>$")
        self.check(c_uint, 20000, r"^<cparam '[LI]' \(20000\)>$")
        self.check(c_long, 20000, r"^<cparam '[li]' \(20000\)>$")
        self.check(c_ulong, 20000, r"^<cparam '[LI]' \(20000\)>$")
        self.check(c_longlong, 20000, r"^<cparam '[liq]' \(20000\)>$")
        self.check(c_ulonglong, 20000, r"^<cparam '[LIQ]' \(20000\)>$")
        assert repr(from_param(c_float, 1.5)) == "<cparam 'f' (1.5)>"
        assert repr(from_param(c_double, 1.5)) == "<cparam 'd' (1.5)>"
        assert repr(from_param(c_double, 1e300)) == "<cparam 'd' (1e+300)>"
        self.check(c_longdouble, 1.5, r"^<cparam ('d' \(1.5\)|'g' at 0x[A-Fa-f0-9]+)>$")
        self.check(c_char_p, b"hihi", r"^<cparam 'z' \(0x[A-Fa-f0-9]+\)>$")
        self.check(c_wchar_p, u"hihi", r"^<cparam 'Z' \(0x[A-Fa-f0-9]+\)>$")
        self.check(c_void_p, 0x12, r"^<cparam 'P' \(0x0*12\)>$")


def test_issue_examples():
    assert repr(from_param(c_ubyte, 200)) == "<cparam 'B' (-56)>"
    assert repr(from_param(c_char, b"\\")) == "<cparam 'c' ('\\x5c')>"
    assert repr(from_param(c_char, b"'")) == "<cparam 'c' ('\\x27')>"
    assert repr(from_param(c_char, b"\xff")) == "<cparam 'c' ('\\xff')>"
    assert repr(from_param(c_void_p, b"xy")).startswith("<cparam 'z' (0x")


@pytest.mark.skipif(not helpers.FIXED, reason="the stock repr is the reference where it is fixed")
@pytest.mark.skipif(object.__basicsize__ != 2 * ctypes.sizeof(ctypes.c_void_p),
                    reason="release builds: the tag follows the header and pffi_type")
def test_every_tag_byte_prints_as_fixed_cpython_prints_it():
    # ctypes itself sets a dozen tags; any byte can stand there (struct
    # tagPyCArgObject: header, pffi_type, tag), and fixed CPython prints the
    # address-only ones as '<cparam 'x' at ...>' or '<cparam 0x07 at ...>'.
    safe = from_param(c_void_p, 0x12)
    carg = safe._as_parameter_
    tag = ctypes.c_char.from_address(id(carg) + object.__basicsize__
                                     + ctypes.sizeof(ctypes.c_void_p))
    assert tag.value == b"P"
    try:
        for code in range(256):
            tag.value = bytes(bytearray([code]))
            assert repr(safe) == repr(carg), code
    finally:
        tag.value = b"P"


ALL_CASES = helpers.cases()
GOLDEN = helpers.golden()


def _outcome(call):
    try:
        return call(), None
    except Exception as error:  # the error itself is what is compared
        return None, error


@pytest.mark.parametrize("name,kind,raw", ALL_CASES, ids=[helpers.key(*c) for c in ALL_CASES])
def test_fidelity(name, kind, raw):
    """Same result kind, same errors, and the repr fixed CPython prints."""
    ctype = getattr(ctypes, name)
    value = helpers.value(kind, raw)
    stock, stock_error = _outcome(lambda: ctype.from_param(value))
    safe, safe_error = _outcome(lambda: from_param(ctype, value))
    if stock_error is not None:
        assert type(safe_error) is type(stock_error)
        assert str(safe_error) == str(stock_error)
        return
    assert safe_error is None
    if type(stock) is not CArg:
        assert safe is stock or safe == stock  # passed through (None, instances)
        return
    assert type(safe) is SafeCArg
    carg = safe._as_parameter_
    text = repr(safe)
    if helpers.FIXED:
        # The very same CArgObject, so addresses are comparable too.
        assert text == repr(carg)
    golden = GOLDEN.get(helpers.key(name, kind, raw))
    if golden is not None:
        assert text == golden
    else:
        assert re.match(r"^<cparam ('[zZ]' \(0x[0-9a-f]+\)|'[?ug]' at 0x[0-9a-f]+)>$", text), text


def test_golden_covers_the_value_set():
    # Guards the data file: a regenerated, near-empty golden would make test_fidelity vacuous.
    assert len(GOLDEN) > 400
    assert GOLDEN["c_double float %s" % (1e300).hex()] == "<cparam 'd' (1e+300)>"
    assert GOLDEN["c_ubyte int 200"] == "<cparam 'B' (-56)>"


def test_at_forms_print_the_address_of_the_parameter_object():
    for ctype, value in ((c_bool, True), (c_wchar, u"a"), (c_longdouble, 1.5)):
        safe = from_param(ctype, value)
        if ctype is c_longdouble and ctypes.sizeof(c_longdouble) == ctypes.sizeof(c_double):
            continue  # c_longdouble is c_double there
        assert repr(safe).endswith(" at 0x%x>" % id(safe._as_parameter_))


def test_pointer_forms_print_the_real_pointer():
    data = b"hihi"
    safe = from_param(c_char_p, data)
    address = ctypes.cast(safe._obj, c_void_p).value  # the bytes' buffer, found another way
    assert repr(safe) == "<cparam 'z' (0x%x)>" % address
    assert repr(from_param(c_void_p, 2 ** 64 - 1)) == "<cparam 'P' (0xffffffffffffffff)>"


def test_null_pointer_prints_like_the_platform_percent_p():
    text = repr(from_param(c_void_p, 0))
    if sys.platform.startswith("linux"):
        # glibc's "(nil)", 0x-prefixed by PyUnicode_FromFormat
        assert text == "<cparam 'P' (0x(nil))>"
    assert text.startswith("<cparam 'P' (0x")


def test_passes_through_what_is_not_a_parameter_object():
    instance = c_double(2.5)
    assert from_param(c_double, instance) is instance
    assert from_param(c_char_p, None) is None
    assert from_param(c_void_p, None) is None
    pointer = ctypes.pointer(c_int(3))
    assert from_param(ctypes.POINTER(c_int), pointer) is pointer


def test_follows_as_parameter_like_ctypes():
    class Seven(object):
        _as_parameter_ = 7

    assert repr(from_param(c_int, Seven())) == "<cparam 'i' (7)>"
    inner = c_int(7)

    class Holder(object):
        _as_parameter_ = inner

    assert from_param(c_int, Holder()) is inner


def test_raises_what_ctypes_raises():
    for ctype, value in ((c_double, "x"), (c_int, 1.5), (c_char_p, 3), (c_void_p, 1.5)):
        with pytest.raises(Exception) as stock:
            ctype.from_param(value)
        with pytest.raises(Exception) as safe:
            from_param(ctype, value)
        assert type(safe.value) is type(stock.value)
        assert str(safe.value) == str(stock.value)
    with pytest.raises(AttributeError):
        from_param(object, 1)


def test_safe_object_keeps_the_real_parameter():
    safe = from_param(c_char_p, b"abc")
    assert type(safe._as_parameter_) is CArg
    assert safe._obj == b"abc"
    assert str(safe) == repr(safe)
    with pytest.raises(TypeError):
        SafeCArg(1.5)
    assert repr(SafeCArg(c_double.from_param(1e300) if helpers.FIXED
                         else c_int.from_param(3))) in ("<cparam 'd' (1e+300)>", "<cparam 'i' (3)>")


def test_overflowing_doubles_in_process_are_safe_on_every_interpreter():
    # Only the pure-Python repr runs here; 2.7's C repr of these is tested in a subprocess.
    for x in (1e300, -1e300, helpers.MAX_DOUBLE, -helpers.MAX_DOUBLE, 1e233, -1e232):
        assert repr(from_param(c_double, x)) == "<cparam 'd' (%r)>" % x


def test_public_surface():
    assert set(ctypes_safe.__all__) == {"from_param", "patch", "unpatch", "is_patched",
                                        "is_vulnerable", "status", "SafeCArg", "PatchReport",
                                        "__version__"}
    for name in ctypes_safe.__all__:
        assert getattr(ctypes_safe, name) is not None
