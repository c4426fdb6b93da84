"""The packages' state lock under a hold taken between any two of its own steps (issue 53).

A signal handler, a ``gc`` callback or a ``__del__`` that asks ``status()`` runs between
two bytecodes of whatever its thread was doing, the lock's own ``__enter__`` and
``__exit__`` included. Here a tracer takes and leaves the lock, as such a handler does,
at each line (3.7+: each bytecode) of them in turn; the outer hold must still be the
one that releases, once, and the lock must end free. Before: a hold taken between
"acquired" and "this frame holds it" released the lock under the outer ``with``
block ("release unlocked lock", ``thread.error`` on 2.7, at its end).
"""

import sys

import pytest

from internals import StateLock

STEPS = (StateLock.__enter__.__code__, StateLock.__exit__.__code__)


def _opcode_events():
    """How many opcode events a traced three-line function gives: 0 on 2.7 and 3.6
    (no such event) and on 3.12.1, whose tracer never delivers them (3.12.2+ does)."""
    if sys.version_info < (3, 7):
        return 0
    events = []

    def local(frame, event, arg):
        events.append(event)
        return local

    def tracer(frame, event, arg):
        if frame.f_code is sample.__code__:
            frame.f_trace_opcodes = True
            frame.f_trace = local
            return local
        return None

    def sample():
        a = 1
        return a + 1

    sys.settrace(tracer)
    try:
        sample()
    finally:
        sys.settrace(None)
    return events.count("opcode")


OPCODES = pytest.param("opcodes", marks=pytest.mark.skipif(
    _opcode_events() == 0, reason="this interpreter's tracer gives no opcode events"))
MODES = ["lines", OPCODES]


def _hold_at(lock, at, opcodes):
    """``with lock:`` with a nested ``with lock:`` run at the *at*-th traced event of the
    lock's own steps; returns whether that event came, and whether the block held it."""
    seen = [0]
    held_inside = []

    def local(frame, event, arg):
        if event in ("line", "opcode") and (event == "opcode") == opcodes:
            seen[0] += 1
            if seen[0] == at:
                with lock:  # the handler's status()
                    pass
        return local

    def tracer(frame, event, arg):
        if frame.f_code in STEPS:
            if opcodes:
                frame.f_trace_opcodes = True
                frame.f_trace = local  # 3.12+: only then are its bytecodes traced
            return local
        return None

    sys.settrace(tracer)
    try:
        with lock:
            taken = lock._held().lock.acquire(False)  # True: the block runs unlocked
            if taken:
                lock._held().lock.release()
            held_inside.append(not taken)
    finally:
        sys.settrace(None)
    return seen[0] >= at, held_inside == [True]


@pytest.mark.parametrize("mode", MODES)
def test_a_hold_taken_between_any_two_steps_of_the_lock_never_breaks_it(mode):
    lock = StateLock()
    at, broken = 0, []
    while True:
        at += 1
        try:
            reached, held = _hold_at(lock, at, mode == "opcodes")
        except Exception as exc:  # "release unlocked lock", RuntimeError
            broken.append((at, type(exc).__name__))
            continue
        if not reached:
            break
        free = lock._held().lock.acquire(False)
        if free:
            lock._held().lock.release()
        if not (held and free and lock._held().owner is None):
            broken.append((at, held, free))
    assert at > 5
    assert broken == []
