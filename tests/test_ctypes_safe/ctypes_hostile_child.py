"""Slot mode in a hostile process: real signals inside ``patch()``/``unpatch()``, health checks
from a signal handler, a second copy of the package, and fork() in a threaded, logging process.

Run as ``python tests/test_ctypes_safe/ctypes_hostile_child.py SCENARIO ARGS...`` by
``ctypes_helpers.child(..., script=HOSTILE_CHILD)``; each prints one JSON line.
Slot mode is what ``patch()`` picks on 2.7.18 and ``patch(force=True)`` on 3.x.
What the type holds is read here from its memory, as the C code sees it: the
``tp_repr`` slot (word 11 of a release build's type object) and the dict entry.
"""

from __future__ import print_function

import ctypes
import os
import random
import signal
import sys
import time

import ctypes_helpers

CArg = type(ctypes.c_int.from_param(0))
FIXED_1_5 = "<cparam 'd' (1.5)>"
TP_REPR = 11  # word of tp_repr in a release build's type object (two-word object header)
FORCE = {"force": ctypes_helpers.FIXED}  # slot mode: patch() on 2.7.18, patch(force=True) on 3.x


def tp_repr(cls=CArg):
    """The value of *cls*'s tp_repr slot (release builds only)."""
    assert object.__basicsize__ == 2 * ctypes.sizeof(ctypes.c_void_p), "release builds only"
    return (ctypes.c_void_p * (TP_REPR + 1)).from_address(id(cls))[TP_REPR]


STOCK_SLOT, STOCK_ENTRY = tp_repr(), CArg.__dict__["__repr__"]  # read before any patch
DISPATCHER = tp_repr(type("Probe", (object,), {"__repr__": lambda self: ""}))


def held():
    """What the type holds: "stock", "python" (slot_tp_repr and a function), or "mixed"."""
    slot, entry = tp_repr(), CArg.__dict__.get("__repr__")
    if slot == STOCK_SLOT and entry is STOCK_ENTRY:
        return "stock"
    if slot == DISPATCHER and type(entry) is type(held):
        return "python"
    return "mixed"


class Interrupt(KeyboardInterrupt):
    """What the timer's handler raises: a KeyboardInterrupt, as from SIGINT."""


def scenario_interrupted(seed, interrupts, seconds):
    """``patch()``/``unpatch()`` in turn, each under a one-shot timer of a random delay whose
    handler raises; after each interrupted call, does the type hold one whole state, and does
    ``is_patched()`` say which? Then one plain ``patch()``."""
    import ctypes_safe
    rng = random.Random(int(seed))
    armed, stopped = [False], [0]
    counts = {"calls": 0, "interrupted": 0, "mixed": 0, "lied": 0}

    def handler(signum, frame):
        if armed[0]:  # one exception in flight at a time, only inside the call
            armed[0] = False
            raise Interrupt()

    signal.signal(signal.SIGALRM, handler)
    ctypes_safe.patch(**FORCE)  # builds everything once; the delays fit the calls' cost
    ctypes_safe.unpatch()
    deadline = time.time() + float(seconds)
    while stopped[0] < int(interrupts) and time.time() < deadline:
        call = ctypes_safe.patch if rng.random() < 0.5 else ctypes_safe.unpatch
        signal.setitimer(signal.ITIMER_REAL, rng.uniform(0.00001, 0.0008))
        counts["calls"] += 1
        try:
            armed[0] = True
            call(**(FORCE if call is ctypes_safe.patch else {}))
            armed[0] = False
        except Interrupt:
            stopped[0] += 1
            state = held()
            counts["mixed"] += state == "mixed"
            counts["lied"] += ctypes_safe.is_patched() != (state == "python")
        finally:
            armed[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
    counts["interrupted"] = stopped[0]
    report = ctypes_safe.patch(**FORCE)
    counts.update({"final_mode": report.mode, "final_held": held(),
                   "final_is_patched": ctypes_safe.is_patched(),
                   "final_repr": repr(ctypes.c_double.from_param(1.5))})
    return counts


def scenario_handler_health(seed, cycles, seconds):
    """A SIGALRM handler calls ``is_patched()`` and ``status()`` every 100 us while this thread
    runs patch/unpatch cycles: how many cycles and checks ran, and did a check ever disagree
    with what the type held?"""
    import ctypes_safe
    rng = random.Random(int(seed))
    checks, lies = [0], []

    def handler(signum, frame):
        checks[0] += 1
        state = held()
        patched = ctypes_safe.is_patched()
        info = ctypes_safe.status() if rng.random() < 0.25 else {"patched": patched}
        if state == "mixed" or patched != (state == "python") or info["patched"] != patched:
            lies.append(state)

    ctypes_safe.status()  # imports what status() needs before the handler may run
    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.0001, 0.0001)
    done, deadline = 0, time.time() + float(seconds)
    while done < int(cycles) and time.time() < deadline:
        ctypes_safe.patch(**FORCE)
        ctypes_safe.unpatch()
        done += 1
    signal.setitimer(signal.ITIMER_REAL, 0, 0)
    return {"cycles": done, "checks": checks[0], "lies": len(lies), "sample": lies[:3]}


def scenario_second_copy(directory):
    """A copy of the package vendored as ``vendored_ctypes_safe`` (in *directory*), imported after
    the first copy patched: what does it say while that fix is in force, and after unpatch()?"""
    import ctypes_safe
    first = ctypes_safe.patch(**FORCE)
    sys.path.insert(0, directory)
    import vendored_ctypes_safe as second

    def seen():
        info = second.status()
        return {"vulnerable": second.is_vulnerable(), "exposed": info["exposed"],
                "patched": second.is_patched(), "repr_by": info.get("repr_by")}

    during = seen()
    ctypes_safe.unpatch()
    return {"first_mode": first.mode, "during": during, "after": seen()}


def _busy(api, stop):
    """A thread using the package: patch(), is_patched(), status(), unpatch() until *stop*."""
    while not stop.is_set():
        api.patch(**FORCE)
        api.is_patched()
        api.unpatch()


def scenario_fork_logging(children):
    """A process whose threads use the package and log (logging configured), forked *children*
    times: each child patches, unpatches and exits within 5 s, or counts as hung."""
    import logging
    import threading
    import warnings
    import ctypes_safe
    warnings.simplefilter("ignore")  # 3.12+: DeprecationWarning, forking a threaded process
    logging.basicConfig(stream=open(os.devnull, "w"), level=logging.WARNING)
    stop = threading.Event()
    workers = [threading.Thread(target=_busy, args=(ctypes_safe, stop)) for _ in range(3)]

    def chatter():
        while not stop.is_set():
            logging.getLogger("app.%d" % random.randint(0, 50)).warning("working")

    workers.append(threading.Thread(target=chatter))
    for worker in workers:
        worker.start()
    pids = []
    for _ in range(int(children)):
        time.sleep(0.002)
        pid = os.fork()
        if pid == 0:  # the child: SIGALRM ends it if it hangs
            signal.alarm(5)
            try:
                ctypes_safe.patch(**FORCE)
                ctypes_safe.unpatch()
            except BaseException:
                os._exit(3)
            os._exit(0)
        pids.append(pid)
    stop.set()
    statuses = [os.waitpid(pid, 0)[1] for pid in pids]
    for worker in workers:
        worker.join()
    return {"children": len(statuses),
            "answered": sum(1 for status in statuses if status == 0),
            "hung": sum(1 for status in statuses
                        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM)}


if __name__ == "__main__":
    sys.exit(ctypes_helpers.run_scenario(globals(), sys.argv[1:]))
