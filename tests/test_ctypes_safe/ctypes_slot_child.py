"""Slot-mode scenarios that need a fresh interpreter: signals, shutdown, subinterpreters, fork,
the recursion limit, another tool's ``__repr__``, and ``patch()`` stopped half-way.

Run as ``python tests/test_ctypes_safe/ctypes_slot_child.py SCENARIO ARGS...`` by
``ctypes_helpers.child(..., script=SLOT_CHILD)``; each prints one JSON line.
Slot mode is what ``patch()`` picks on 2.7.18 and what ``patch(force=True)``
picks on 3.x. It imports the installed ctypes_safe, never the source tree.
"""

from __future__ import print_function

import codecs
import ctypes
import gc
import json
import os
import sys
import time

import ctypes_helpers
import child_scripts  # ctypes_helpers put tests/helpers on sys.path

RecursionError = getattr(__builtins__, "RecursionError", RuntimeError)  # 2.7: RuntimeError
CArg = type(ctypes.c_int.from_param(0))
FIXED_1_5 = "<cparam 'd' (1.5)>"
TP_REPR = 11  # word of tp_repr in a release build's type object (two-word object header)


def slot_mode():
    """``patch()`` as start-up runs it on 2.7.18, ``patch(force=True)`` on the fixed 3.x."""
    import ctypes_safe
    report = ctypes_safe.patch(force=ctypes_helpers.FIXED)
    assert report.mode == "slot", report  # before anything that would overflow on 2.7
    return report


def tp_repr():
    """The value of CArgObject's tp_repr slot (release builds only)."""
    assert object.__basicsize__ == 2 * ctypes.sizeof(ctypes.c_void_p), "release builds only"
    return (ctypes.c_void_p * (TP_REPR + 1)).from_address(id(CArg))[TP_REPR]


def type_state():
    """CArgObject's tp_repr and ``__repr__``, and every ctypes class's ``from_param`` entry."""
    classes = [getattr(ctypes, name) for name in sorted(dir(ctypes))]
    classes += [ctypes.c_double.__ctype_be__, ctypes.c_double.__ctype_le__,
                ctypes.c_float.__ctype_be__, ctypes.c_float.__ctype_le__]
    entries = [id(cls.__dict__.get("from_param")) for cls in classes if isinstance(cls, type)]
    return [tp_repr(), id(CArg.__dict__["__repr__"])] + entries


def scenario_signals(count):
    """``repr()`` in a loop while an interval timer's handler raises; how many got through."""
    import signal

    class Timeout(Exception):
        pass

    slot_mode()
    carg = ctypes.c_double.from_param(1.5)
    armed, raised, caught, bad = [False], [0], [0], []

    def handler(signum, frame):
        if armed[0]:  # one exception in flight at a time, never inside the except clause
            armed[0] = False
            raised[0] += 1
            raise Timeout()

    def spin():
        # A function of its own: 3.13.0's exception table leaves a loop's backward
        # jump, where signals are handled, outside the enclosing try.
        while raised[0] < int(count):
            armed[0] = True
            text = repr(carg)
            if text != FIXED_1_5:
                bad.append(text)
        armed[0] = False  # a Timeout just before this still reaches the caller's try

    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.0003, 0.0003)
    deadline = time.time() + 20
    while raised[0] < int(count) and time.time() < deadline:
        try:
            spin()
        except Timeout:
            caught[0] += 1
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    return {"raised": raised[0], "caught": caught[0], "bad": len(bad), "sample": bad[:3]}


def scenario_cleared_globals():
    """The reprs once every module global of ctypes_safe and ctypes is None, as in shutdown."""
    slot_mode()
    cargs = [ctypes.c_double.from_param(1e300), ctypes.c_double.from_param(1.5),
             ctypes.c_int.from_param(7), ctypes.c_char.from_param(b"a")]
    modules = [module for name, module in sorted(sys.modules.items())
               if module is not None and (name.split(".")[0] in ("ctypes_safe", "ctypes"))]
    saved = [dict(module.__dict__) for module in modules]
    builtins = sys.modules["__builtin__" if ctypes_helpers.PY2 else "builtins"].__dict__
    saved_builtins, texts, errors = dict(builtins), [], []
    show, kind, anything = repr, type, BaseException  # the builtins this loop needs
    for module in modules:
        for name in list(module.__dict__):
            module.__dict__[name] = None
    for name in list(builtins):
        builtins[name] = None  # restored below, before anything else runs
    for carg in cargs:
        try:
            texts.append(show(carg))
        except anything as error:  # recorded, so that everything is restored first
            errors.append("%s: %s" % (kind(error).__name__, error))
    builtins.update(saved_builtins)
    for module, namespace in zip(modules, saved):
        module.__dict__.update(namespace)
    return {"texts": texts, "errors": errors, "modules": len(modules)}


class _LateRepr(object):
    """Writes the repr of its parameter object to fd 1 when the interpreter finally frees it."""

    def __init__(self, carg):
        self.carg = carg

    # The encoder is bound now: at exit, str.encode() would look the codec up
    # through the cleared encodings package (2.7), and fail before the repr is seen.
    def __del__(self, write=os.write, encode=codecs.lookup("ascii").encode):
        write(1, encode("late repr: %s\n" % repr(self.carg))[0])


def scenario_late_del():
    """A ``__del__`` that reprs a parameter as the last modules are cleared at exit."""
    slot_mode()
    sys.late_repr = _LateRepr(ctypes.c_double.from_param(1e300))  # sys is cleared last
    return {"installed": True}


def scenario_subinterpreter():
    """``patch()`` in a subinterpreter that then ends; then repr() and patch() here."""
    import _testcapi

    import tempfile

    import ctypes_safe
    handle, path = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    code = ("import json, ctypes_safe\n"
            "report = ctypes_safe.patch(force=True)\n"
            "with open(%r, 'w') as handle:\n"
            "    json.dump([report.mode, report.skipped], handle)\n" % path)
    assert _testcapi.run_in_subinterp(code) == 0
    with open(path) as handle:
        sub_mode, sub_skipped = json.load(handle)
    os.remove(path)
    texts = [repr(ctypes.c_double.from_param(1.5)), str(ctypes.c_int.from_param(7))]
    report = ctypes_safe.patch(force=True)
    patched_text = repr(ctypes.c_double.from_param(1e300))
    ctypes_safe.unpatch()
    return {"sub_mode": sub_mode, "sub_skipped": sub_skipped, "texts": texts,
            "mode": report.mode, "patched_text": patched_text}


def _hold_lock_in_thread():
    """Stop a thread inside ctypes_safe's lock: ``status()`` (a health check) blocked
    while it reads its switch's variable. Return (api, release, thread)."""
    import threading
    import ctypes_safe as api
    inside, release = threading.Event(), threading.Event()
    environ = os.environ

    def blocking(*args):
        del environ.get  # the class's own again
        inside.set()
        release.wait(30)
        return environ.get(*args)

    environ.get = blocking
    thread = threading.Thread(target=api.status)
    thread.start()
    assert inside.wait(10), "the thread never got inside the lock"
    return api, release, thread


def scenario_fork(children):
    """Fork while another thread holds ctypes_safe's lock; does each child's API answer in time?"""
    api, release, thread = _hold_lock_in_thread()
    result = child_scripts.forked_calls(api, children, force=True)
    release.set()
    thread.join()
    api.unpatch()
    return result


def scenario_recursion(mode):
    """``repr()`` of a parameter in each of the 30 frames nearest the recursion limit, deepest
    first: the text, or ``RecursionError``."""
    if mode == "slot":
        slot_mode()
    carg = ctypes.c_double.from_param(1.5)
    outcomes = []

    def dive():
        try:
            dive()
        except RecursionError:
            pass
        if len(outcomes) < 30:  # the deepest frames first, while unwinding
            try:
                outcomes.append(repr(carg))
            except RecursionError:
                outcomes.append("RecursionError")

    dive()
    return {"outcomes": outcomes}


def scenario_another_tool():
    """Slot mode, then another tool installs its own ``__repr__`` the same way; unpatch()."""
    import ctypes_safe
    slot_mode()
    dispatcher = tp_repr()

    def theirs(self):
        return "<theirs>"

    modified = ctypes.pythonapi["PyType_Modified"]
    modified.argtypes, modified.restype = [ctypes.py_object], None
    gc.get_referents(CArg.__dict__)[0]["__repr__"] = theirs  # CArgObject's real dict
    modified(CArg)
    report = ctypes_safe.unpatch()
    return {"changed": report.changed, "skipped": report.skipped,
            "slot_left": tp_repr() == dispatcher,
            "theirs_left": CArg.__dict__["__repr__"] is theirs,
            "texts": [repr(ctypes.c_double.from_param(x)) for x in (1.5, 1e300)],
            "patched": ctypes_safe.is_patched()}


def scenario_interrupted(kind):
    """``patch()`` stopped by *kind* (KeyboardInterrupt, MemoryError) at each line it runs in
    ctypes_safe in turn: every time, the type must be patched as a whole or exactly as found."""
    import linecache

    import ctypes_safe
    error = {"KeyboardInterrupt": KeyboardInterrupt, "MemoryError": MemoryError}[kind]
    package = os.path.dirname(os.path.abspath(ctypes_safe.__file__))
    repr(ctypes_safe.from_param(ctypes.c_double, 1.5))  # builds the formatter: not counted
    found = type_state()
    failures, outcomes, line = [], set(), 0

    while True:
        line += 1
        seen = [0]

        def local(frame, event, arg):
            # Not at a with statement's own line: from 3.12 a line event is reported
            # there as the block ends, before __exit__ (the lock's release) is called,
            # which no signal or MemoryError can interrupt.
            if event == "line" and not linecache.getline(
                    frame.f_code.co_filename, frame.f_lineno).lstrip().startswith("with "):
                seen[0] += 1
                if seen[0] == line:
                    raise error("stopped at line event %d" % line)
            return local

        def tracer(frame, event, arg):
            if os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == package:
                return local(frame, event, arg)
            return None

        sys.settrace(tracer)
        try:
            report = ctypes_safe.patch(force=ctypes_helpers.FIXED)
            outcome = "completed"
        except error:
            report, outcome = None, "raised"
        finally:
            sys.settrace(None)
        patched = ctypes_safe.is_patched()
        mode = ctypes_safe.status()["mode"]
        outcomes.add((outcome, str(mode)))
        if patched:
            if mode == "slot" and repr(ctypes.c_double.from_param(1.5)) != FIXED_1_5:
                failures.append((line, outcome, "slot mode without the safe repr"))
            if mode == "converter" and "from_param" not in ctypes.c_double.__dict__:
                failures.append((line, outcome, "converter mode without its from_param"))
            ctypes_safe.unpatch()
        if type_state() != found:
            failures.append((line, outcome, "patched %s, then the type is not as found" % patched))
            break
        if report is not None and seen[0] < line:  # ran to the end without being stopped
            break
    return {"lines": line, "failures": failures, "outcomes": sorted(outcomes)}


if __name__ == "__main__":
    sys.exit(ctypes_helpers.run_scenario(globals(), sys.argv[1:]))
