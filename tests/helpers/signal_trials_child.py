"""Issue 53's trial: a real periodic SIGALRM whose handler asks a package's health
checks (``status()``, ``is_patched()``, ``is_vulnerable()``) while the main thread runs
``patch()``/``unpatch()`` cycles, the first ``patch()`` of the process (its imports)
included.

Run as ``python tests/helpers/signal_trials_child.py SCENARIO ARGS...`` by
``child_scripts.child_json``; prints one JSON line. Where the handler lands depends
on the machine; what is asserted does not: no call may fail, the lock must be free
at the end (another thread's ``status()`` answers), and the last answers must be the
bindings' truth. A broken lock shows as "release unlocked lock" (``thread.error`` on
2.7), a RuntimeError, or a thread that waits for ever (ended by the watchdog).
"""

from __future__ import print_function

import signal
import sys
import threading
import traceback

from child_scripts import run_scenario

#: The handler's period: short enough to land inside most calls.
PERIOD = 0.0005


def scenario_alarm(which, cycles):
    """*cycles* patch()/unpatch() cycles of package *which* under the handler."""
    failures = []
    answers = [0]
    ready = []  # the package's own import finished: a handler inside it is the app's

    def ask(signum, frame):
        # Not inside itself: a handler that lands in its own status()'s import of a
        # framework's C extension (zope.interface's, by twisted) runs Python code in
        # that extension's init, which CPython 3.8 does not survive (seen here, a
        # segfault in whatever the nested handler runs): the process's hazard, not
        # one of the package's.
        if not ready or len(ready) > 1:
            return
        ready.append(True)
        package = sys.modules[which]
        try:
            package.is_patched()
            package.status()
            getattr(package, "is_vulnerable", bool)()
            answers[0] += 1
        except Exception:
            failures.append("handler: " + traceback.format_exc().splitlines()[-1])
        finally:
            ready.pop()

    try:  # what the handler's report of a failure imports (linecache, tokenize): loaded now
        raise ValueError("warm-up")
    except ValueError:
        traceback.format_exc()
    signal.signal(signal.SIGALRM, ask)
    signal.setitimer(signal.ITIMER_REAL, PERIOD, PERIOD)
    try:
        __import__(which)
        package = sys.modules[which]
        ready.append(True)
        options = {"force": True}
        for _ in range(int(cycles)):
            try:
                package.patch(**options)
                package.unpatch()
            except Exception:
                failures.append("call: " + traceback.format_exc().splitlines()[-1])
                if len(failures) > 5:
                    break
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)
    # The lock is free: another thread's status() answers.
    answered = []
    other = threading.Thread(target=lambda: answered.append(package.status()))
    other.daemon = True
    other.start()
    other.join(30)
    changed = bool(package.patch(**options).changed)  # False: nothing here to patch
    patched = package.is_patched() == package.status()["patched"] == changed
    package.unpatch()
    unpatched = not package.is_patched() and not package.status()["patched"]
    return {"failures": failures[:6], "answers": answers[0] > 0,
            "lock_free": bool(answered), "truthful": bool(patched and unpatched)}


if __name__ == "__main__":
    sys.exit(run_scenario(globals(), sys.argv[1:]))
