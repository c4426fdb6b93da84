"""Scenarios of the ctypes_safe tests that need a fresh interpreter (a crash, start-up, threads).

Run as ``python tests/test_ctypes_safe/ctypes_helpers_child.py SCENARIO ARGS...`` by
``ctypes_helpers.child()``; each prints one JSON line, unless the interpreter
dies first, which is what some tests expect on unpatched 2.7.18. It imports
the installed ctypes_safe, never the source tree.
"""

from __future__ import print_function

import ctypes
import sys

import ctypes_helpers


class UserDouble(ctypes._SimpleCData):
    """A user type straight on ``_SimpleCData``: its ``from_param`` is the C metaclass's."""

    _type_ = "d"


def _patch(mode):
    """Apply *mode*: ``stock`` (nothing), ``slot``/``converter`` (forced), ``auto`` (patch())."""
    import ctypes_safe
    if mode == "stock":
        return None
    if mode == "converter":
        ctypes_helpers.disable_slot_mode()
    report = ctypes_safe.patch(force=mode != "auto")
    if mode in ("slot", "converter"):
        assert report.mode == mode, report  # never repr an overflowing value in the wrong mode
    return report


def _texts(carg):
    return {"repr": repr(carg), "str": str(carg), "dunder": carg.__repr__()}


def scenario_repr(kind, value, mode):
    """The repr of ``kind.from_param(value)`` after *mode*; kind: ``c_double`` or ``user``."""
    report = _patch(mode)
    ctype = UserDouble if kind == "user" else getattr(ctypes, kind)
    result = _texts(ctype.from_param(float(value)))
    result["mode"] = report.mode if report is not None else None
    return result


def scenario_unpatched(value):
    """Patch (forced), unpatch, then the stock repr of ``c_double.from_param(value)``."""
    import ctypes_safe
    patched = ctypes_safe.patch(force=True)
    restored = ctypes_safe.unpatch()
    result = _texts(ctypes.c_double.from_param(float(value)))
    result.update(mode=patched.mode, restored=restored.changed, patched=ctypes_safe.is_patched())
    return result


def scenario_startup(value):
    """What the ``.pth`` file did: reprs *value* before this script imports ctypes_safe itself."""
    text = repr(ctypes.c_double.from_param(float(value)))  # dies on unpatched 2.7 for 1e300
    imported = "ctypes_safe" in sys.modules
    import ctypes_safe
    return {"repr": text, "imported_at_startup": imported,
            "patched": ctypes_safe.is_patched(), "report": ctypes_safe.status()["report"]}


def scenario_imports():
    """What ``import ctypes_safe`` loads and changes, after ``import ctypes``."""
    def state():
        carg_type = type(ctypes.c_int.from_param(0))
        return [sorted((n, repr(getattr(ctypes, n).__dict__.get("from_param")))
                       for n in dir(ctypes) if n.startswith("c_")),
                repr(carg_type.__dict__["__repr__"])]

    before_modules = set(sys.modules)
    before = state()
    import ctypes_safe
    loaded = sorted(name for name in set(sys.modules) - before_modules
                    if sys.modules[name] is not None)
    import ctypes_safe.__main__  # noqa: F401 - runs nothing unless run as a script
    return {"unchanged": before == state(), "patched": ctypes_safe.is_patched(),
            "loaded": loaded}


def scenario_threads(rounds):
    """Threads repr parameters while another patches and unpatches in a loop; the texts seen.

    The loop runs at least *rounds* times, and until the readers made *rounds* passes.
    """
    import threading

    import ctypes_safe
    cases = [(ctypes.c_double, 1.5), (ctypes.c_float, 0.5), (ctypes.c_int, 7),
             (ctypes.c_char, b"a"), (ctypes.c_void_p, 0x12), (UserDouble, 2.5)]
    # Valid texts: the stock one (cannot overflow for these values) and the fixed one.
    valid = [set([repr(ctype.from_param(value)), repr(ctypes_safe.from_param(ctype, value))])
             for ctype, value in cases]
    if hasattr(sys, "setswitchinterval"):
        sys.setswitchinterval(1e-6)
    else:
        sys.setcheckinterval(1)
    done = []
    bad = []
    seen = [0]
    doubles = set()  # the texts seen for c_double: both kinds on 2.7, if the threads interleave

    def reader():
        while not done:
            for (ctype, value), texts in zip(cases, valid):
                carg = ctype.from_param(value)
                for text in (repr(carg), str(carg), carg.__repr__()):
                    if text not in texts:
                        bad.append(text)
                    if ctype is ctypes.c_double:
                        doubles.add(text)
                seen[0] += 1

    def toggler():
        try:
            toggles = 0
            while toggles < int(rounds) or seen[0] < int(rounds):  # both sides get going
                ctypes_safe.patch(force=True)
                ctypes_safe.unpatch()
                toggles += 1
        finally:
            done.append(True)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    threads.append(threading.Thread(target=toggler))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"bad": sorted(set(bad)), "reprs": seen[0], "patched": ctypes_safe.is_patched(),
            "stock": repr(ctypes.c_double.from_param(1.5)), "doubles": sorted(doubles)}


def scenario_pretend(what):
    """``patch(force=True)`` where slot mode's check must refuse; the mode and reasons reported.

    ``trace_refs``: the interpreter claims a Py_TRACE_REFS build
    (``sys.getobjects``) but has a release build's two-word header.
    ``foreign_repr``: someone else already put another function (object's own
    repr, harmless) into ``CArgObject``'s ``tp_repr`` (word 11 of the type
    object on release builds); it is written back before anything is repr'd.
    ``free_threaded``: the build claims ``Py_GIL_DISABLED`` (PEP 703) in its
    configuration variables (3.13+) and ``t`` in ``sys.abiflags`` (what
    ``ctypes_safe`` reads before 3.13, where no such build exists).
    """
    import ctypes_safe
    assert object.__basicsize__ == 2 * ctypes.sizeof(ctypes.c_void_p), "release builds only"
    slots = (ctypes.c_void_p * 12).from_address(id(type(ctypes.c_int.from_param(0))))
    stock = slots[11]
    if what == "trace_refs":
        sys.getobjects = lambda *args: []
    elif what == "free_threaded":
        sys.abiflags = getattr(sys, "abiflags", "") + "t"  # what a free-threaded build has
    elif what == "foreign_repr":
        slots[11] = (ctypes.c_void_p * 12).from_address(id(object))[11]
    try:
        report = ctypes_safe.patch(force=True)
    finally:
        found, slots[11] = slots[11], stock
    text = repr(ctypes.c_double.from_param(1e300))
    ctypes_safe.unpatch()
    return {"mode": report.mode, "skipped": report.skipped, "repr": text,
            "slot_untouched": found == (stock if what != "foreign_repr" else
                                        (ctypes.c_void_p * 12).from_address(id(object))[11])}


def scenario_rebound():
    """Slot mode, then someone else writes ``tp_repr`` (object's repr, harmless); unpatch()."""
    import ctypes_safe
    assert object.__basicsize__ == 2 * ctypes.sizeof(ctypes.c_void_p), "release builds only"
    slots = (ctypes.c_void_p * 12).from_address(id(type(ctypes.c_int.from_param(0))))
    stock = slots[11]
    theirs = (ctypes.c_void_p * 12).from_address(id(object))[11]
    patched = ctypes_safe.patch(force=True)
    slots[11] = theirs
    report = ctypes_safe.unpatch()
    left, slots[11] = slots[11], stock
    return {"mode": patched.mode, "changed": report.changed, "skipped": report.skipped,
            "left_alone": left == theirs, "patched": ctypes_safe.is_patched(),
            "repr": repr(ctypes.c_double.from_param(1.5))}


def scenario_cli(mode, *argv):
    """``python -m ctypes_safe ARGV`` after *mode*, in this process; the exit status."""
    import runpy
    _patch(mode)
    sys.argv = ["ctypes_safe"] + list(argv)
    try:
        runpy.run_module("ctypes_safe", run_name="__main__", alter_sys=True)
    except SystemExit as exit:
        return {"exit": exit.code}
    return {"exit": None}


if __name__ == "__main__":
    sys.exit(ctypes_helpers.run_scenario(globals(), sys.argv[1:]))
