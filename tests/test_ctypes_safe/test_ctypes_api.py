"""ctypes_safe.patch()/unpatch()/is_patched()/status(): the shared design in both modes (bpo-42938).

Slot mode is what ``patch()`` picks on every interpreter tested here; converter
mode is reached by making slot mode's check fail (``helpers.disable_slot_mode``).
"""

import ctypes
import logging
import re
import sys
import threading
from ctypes import c_double, c_float, c_int

import pytest

import ctypes_helpers as helpers
import ctypes_safe
from ctypes_safe import PatchReport

CArg = type(c_int.from_param(0))
SLOT_NAMES = ["_ctypes.CArgObject.tp_repr", "_ctypes.CArgObject.__repr__"]
CONVERTER_NAMES = ["ctypes.c_double.from_param", "ctypes.c_double.__ctype_be__.from_param",
                   "ctypes.c_float.from_param", "ctypes.c_float.__ctype_be__.from_param",
                   "ctypes.c_char.from_param", "ctypes.c_void_p.from_param"]
if sys.byteorder == "big":
    CONVERTER_NAMES = [name.replace("__ctype_be__", "__ctype_le__") for name in CONVERTER_NAMES]
ABSENT = object()


def ctypes_state():
    """Every ``from_param`` entry of ctypes' classes, and CArgObject's repr, by identity."""
    classes = []
    for cls in [getattr(ctypes, n) for n in sorted(dir(ctypes))] + [
            c_double.__ctype_be__, c_float.__ctype_be__]:
        if isinstance(cls, type) and all(cls is not seen for seen in classes):  # c_voidp...
            classes.append(cls)
    return [c.__dict__.get("from_param", ABSENT) for c in classes] + [CArg.__dict__["__repr__"]]


@pytest.fixture(params=["slot", "converter"])
def mode(request):
    """Each test once per mode; nothing patched before or after."""
    undo = helpers.disable_slot_mode() if request.param == "converter" else (lambda: None)
    before = ctypes_state()
    try:
        yield request.param
    finally:
        ctypes_safe.unpatch()
        undo()
    assert all(x is y for x, y in zip(ctypes_state(), before))  # exact originals back


def test_import_changed_nothing_and_nothing_is_patched():
    assert not ctypes_safe.is_patched()
    assert "from_param" not in c_double.__dict__
    assert type(CArg.__dict__["__repr__"]) is type(object.__dict__["__repr__"])  # slot wrapper


def test_patch_without_force_follows_the_detection(mode):
    report = ctypes_safe.patch()
    assert ctypes_safe.is_vulnerable() is (not helpers.FIXED)
    assert bool(report) is ctypes_safe.is_patched() is ctypes_safe.is_vulnerable()
    assert not report.forced
    if helpers.FIXED:
        assert (report.mode, report.changed) == (None, [])
        assert report.skipped == [("_ctypes.CArgObject.tp_repr", "already fixed: the stock "
                                   "repr prints <cparam 'd' (1.5)> (bpo-42938)")]
        assert ctypes_safe.patch() is not report  # nothing held: nothing to return again
    else:
        assert report.mode == mode


def test_report_shape_identity_and_idempotence(mode):
    before = ctypes_state()
    first = ctypes_safe.patch(force=True)
    assert isinstance(first, PatchReport) and first and first.forced and ctypes_safe.is_patched()
    assert first.mode == mode
    if mode == "slot":
        assert first.changed == SLOT_NAMES and first.skipped == []
    else:
        assert first.changed == CONVERTER_NAMES
        assert first.skipped == [("_ctypes.CArgObject.tp_repr",
                                  "slot check failed: slot mode disabled by the test")]
    assert first.as_dict() == {
        "forced": True, "changed": first.changed, "mode": mode,
        "skipped": [{"target": n, "reason": r, "kind": "failure"} for n, r in first.skipped]}
    assert "changed=%r" % (first.changed,) in repr(first)
    during = ctypes_state()
    assert ctypes_safe.patch() is first and ctypes_safe.patch(force=True) is first
    assert all(x is y for x, y in zip(ctypes_state(), during))  # nothing re-installed
    removed = ctypes_safe.unpatch()
    assert removed.changed == first.changed and removed.mode == mode and bool(removed)
    assert not ctypes_safe.is_patched()
    assert all(x is y for x, y in zip(ctypes_state(), before))
    again = ctypes_safe.unpatch()
    assert not again and again.changed == [] and again.mode is None
    assert "from_param" not in c_double.__dict__  # inherited from the metaclass again


def test_what_changes_in_each_mode(mode):
    before = ctypes_state()
    ctypes_safe.patch(force=True)
    after = ctypes_state()
    changed = [i for i, (x, y) in enumerate(zip(before, after)) if x is not y]
    if mode == "slot":  # no ctypes class changes; only the parameter type's repr
        assert changed == [len(before) - 1]
        assert type(c_double.from_param(1.5)) is CArg
        assert not isinstance(c_double.from_param(1.5), c_double)  # as stock ctypes says
    else:
        assert len(changed) == len(CONVERTER_NAMES)


def test_concurrent_patch_and_unpatch_leave_a_consistent_state(mode):
    errors = []

    def worker(n):
        try:
            for _ in range(30):
                report = ctypes_safe.patch(force=True) if n % 2 else ctypes_safe.unpatch()
                assert report.mode in (mode, None)
                repr(c_double.from_param(1.5))
        except Exception as error:  # collected and asserted below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    patched = ctypes_safe.is_patched()
    assert (ctypes_safe.status()["mode"] == mode) is patched
    assert repr(c_double.from_param(1.5)) in ("<cparam 'd' (1.5)>", "<cparam 'd' (1.500000)>")


def test_patched_reprs_are_the_fixed_ones_for_every_tag(mode):
    report = ctypes_safe.patch(force=True)
    assert report.mode == mode  # in-process on 2.7: overflowing values need the patch
    golden = helpers.golden()
    checked = 0
    for name, kind, raw in helpers.cases():
        ctype = getattr(ctypes, name)
        try:
            result = ctype.from_param(helpers.value(kind, raw))
        except Exception:
            continue
        text = repr(result)
        expected = golden.get(helpers.key(name, kind, raw))
        if expected is not None:
            assert text == str(result) == expected, (name, kind, raw)
            checked += 1
        elif type(result) is CArg and mode == "slot":
            address = "0x%x" % id(result)
            assert re.match(r"^<cparam ('[zZ]' \(0x[0-9a-f]+\)|'[?ug]' at %s)>$" % address, text)
    assert checked > 400


def test_status_has_the_common_keys_and_says_the_mode(mode):
    info = ctypes_safe.status()
    assert set(info) == {"package", "version", "cve", "interpreter", "patched", "report",
                         "exposed", "vulnerable", "mode", "probe", "activation", "repr_by",
                         "not_applicable"}
    assert (info["package"], info["version"], info["cve"]) == (
        "ctypes_safe", ctypes_safe.__version__, "CVE-2021-3177")
    assert info["interpreter"]["version"] == "%d.%d.%d" % sys.version_info[:3]
    assert info["interpreter"]["executable"] == sys.executable
    assert (info["patched"], info["report"], info["mode"], info["probe"], info["repr_by"]) == (
        False, None, None, None, "stock")
    assert info["vulnerable"] is info["exposed"] is (not helpers.FIXED)
    report = ctypes_safe.patch(force=True)
    info = ctypes_safe.status()
    assert (info["patched"], info["mode"], info["exposed"]) == (True, mode, False)
    assert info["repr_by"] == ("this package" if mode == "slot" else "stock")
    assert info["report"] == report.as_dict()
    assert info["vulnerable"] is (not helpers.FIXED)  # about the interpreter, still


def test_logging(mode, caplog):
    caplog.set_level(logging.INFO, logger="ctypes_safe")
    ctypes_safe.patch(force=True)
    ctypes_safe.patch(force=True)  # already patched: nothing new to say
    ctypes_safe.unpatch()
    records = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    names = ", ".join(SLOT_NAMES if mode == "slot" else CONVERTER_NAMES)
    expected = [("ctypes_safe", "INFO", "patch (%s mode): replaced %s" % (mode, names)),
                ("ctypes_safe", "INFO", "unpatch (%s mode): restored %s" % (mode, names))]
    if mode == "converter":
        expected.insert(1, ("ctypes_safe", "WARNING", "patch: _ctypes.CArgObject.tp_repr: "
                                                      "slot check failed: slot mode disabled "
                                                      "by the test"))
    assert records == expected
