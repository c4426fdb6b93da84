"""The fork trials of issue 46 (tests/test_patch_trials.py): a child forked while another
thread runs the first ``patch()``, or holds one of :mod:`logging`'s locks, must answer.

Run as ``python tests/helpers/fork_trials_child.py SCENARIO ARGS...`` by
``child_scripts.child_json``; each prints one JSON line. The packages and their
options are :mod:`patch_trials_child`'s (``_trial``). Nothing here depends on
timing: the other thread is held by a tracer, or inside the lock, while this one
forks, and a child that waits for ever is ended by SIGALRM and counted "hung".
"""

from __future__ import print_function

import os
import signal
import sys
import threading

from child_scripts import run_scenario
from patch_trials_child import _trial


#: 2.7's fork() waits for its one import lock, which the other thread holds through its
#: whole import; 3.7+ waits in the packages' fork handlers (``_fork.settle_before_fork``).
WAITS_FOR_IMPORTS = sys.version_info[0] == 2


def scenario_fork_first_patch(which):
    """A thread runs the process's first ``patch()``; at each module import it starts,
    this thread forks a child that calls ``patch()`` and ``status()``."""
    package, options, _ = _trial(which)
    lock = threading.Condition()
    at = {"module": None, "done": False}
    found = {"children": 0, "answered": 0, "hung": [], "failed": []}
    forking = []  # 3.7+: set while this thread is inside fork(), its handlers running

    def before_fork():
        forking.append(True)
        with lock:
            lock.notify_all()

    if hasattr(os, "register_at_fork"):  # registered after the packages': runs first
        os.register_at_fork(before=before_fork, after_in_parent=lambda: forking.pop())

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code.co_name == "<module>" and not forking:
            with lock:
                at["module"] = frame.f_globals.get("__name__")
                lock.notify_all()
                # Until the child is done, or this thread's fork() has begun (3.7+): a
                # fork handler may wait for this import, which then goes on at once.
                lock.wait(0.3)
                at["module"] = None
        return None

    def first_patch():
        sys.settrace(tracer)
        try:
            package.patch(**options)
        finally:
            sys.settrace(None)
            with lock:
                at["done"] = True
                lock.notify_all()

    thread = threading.Thread(target=first_patch)
    thread.start()
    while True:
        with lock:  # not held across fork(): 2.7's fork() waits for the import lock
            while at["module"] is None and not at["done"]:
                lock.wait(1)
            if at["done"]:
                break
            module = at["module"]
        found["children"] += 1
        if WAITS_FOR_IMPORTS:
            with lock:
                forking.append(True)
                lock.notify_all()
        pid = os.fork()
        if WAITS_FOR_IMPORTS and pid:
            forking.pop()
        if pid == 0:
            signal.alarm(30)  # a child that waits for ever: killed, counted "hung"
            try:
                package.patch(**options)
                package.status()
            except BaseException:
                os._exit(3)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        if status == 0:
            found["answered"] += 1
        elif os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
            found["hung"].append(module)
        else:
            found["failed"].append(module)
        with lock:
            lock.notify_all()
            while at["module"] == module:
                lock.wait(1)
    thread.join()
    return found


def _fork_while_held(lock, holding, in_child):
    """Fork while another thread holds *lock* (let go after *holding* seconds at most):
    the child gets 5 s to run ``in_child()``; whether it answered, or hung."""
    taken, release = threading.Event(), threading.Event()

    def hold():
        with lock:
            taken.set()
            release.wait(holding)

    thread = threading.Thread(target=hold)
    thread.start()
    taken.wait(60)
    pid = os.fork()
    if pid == 0:
        signal.alarm(5)  # a child that waits for ever: killed, counted "hung"
        try:
            in_child()
        except BaseException:
            os._exit(3)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    release.set()
    thread.join()
    return {"answered": status == 0,
            "hung": os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM}


def scenario_fork_logging_held(which, held):
    """Another thread holds one of :mod:`logging`'s locks (*held*: ``module``, the lock
    ``getLogger`` takes; ``module-inner``, on 2.7, the lock inside it alone, as between
    the two steps of its ``acquire()``; ``handler``, the lock of the root handler an INFO line goes
    through) while this thread forks: the child gets 5 s to run the process's first
    ``patch()``, ``status()`` and ``unpatch()``."""
    import logging
    package, options, _ = _trial(which)
    logging.basicConfig(stream=open(os.devnull, "w"), level=logging.INFO)
    lock = logging._lock if held.startswith("module") else logging.root.handlers[0].lock
    if held == "module-inner":  # 2.7: the lock inside its RLock, held with no owner named
        lock = lock._RLock__block

    def in_child():
        package.patch(**options)
        package.status()
        package.unpatch()

    # 3.7+: the fork itself waits for logging's module lock (logging takes it before a
    # fork, and renews its locks in the child); 2.7 and 3.6 fork with it held.
    return _fork_while_held(lock, 0.2 if hasattr(os, "register_at_fork") else 60, in_child)


def scenario_fork_module_mutex(which):
    """Another thread is inside a module lock's ``acquire()`` (it holds the lock's own
    mutex, no thread owns the lock) for a module nobody has imported, while this thread
    forks: the child gets 5 s to run ``patch()`` and then import that module."""
    package, options, _ = _trial(which)
    name = "colorsys"
    assert name not in sys.modules
    bootstrap = sys.modules["_frozen_importlib"]
    lock = bootstrap._get_module_lock(name)  # held here: the dict keeps this one

    def in_child():
        package.patch(**options)
        __import__(name)

    return _fork_while_held(lock.lock, 60, in_child)


def _import_in_a_thread(which, prefix, body):
    """Import the package *which* (and its fork handlers), then start another thread on
    the first import of a new module whose *body* follows a line that says it began:
    returns ``(the module's name, that thread)`` once the body has begun."""
    import tempfile
    _trial(which)
    folder = tempfile.mkdtemp()
    name = "%s_%d" % (prefix, os.getpid())
    with open(os.path.join(folder, name + ".py"), "w") as module:
        module.write("import sys\nsys._trial_started.set()\n" + body)
    sys.path.insert(0, folder)
    sys._trial_started = threading.Event()
    importer = threading.Thread(target=__import__, args=(name,))
    importer.start()
    sys._trial_started.wait(60)
    return name, importer


def scenario_fork_half_import(which):
    """Another thread is inside a module's first import (its body waits for a gate that
    a third thread opens 0.2 s later) while this thread forks: whether the child found
    the module whole (3.7+ waits for that import before the fork)."""
    sys._trial_gate = threading.Event()
    name, importer = _import_in_a_thread(which, "half_imported",
                                         "sys._trial_gate.wait(60)\nWHOLE = True\n")
    threading.Timer(0.2, sys._trial_gate.set).start()
    pid = os.fork()
    if pid == 0:
        signal.alarm(5)
        os._exit(0 if getattr(sys.modules.get(name), "WHOLE", False) else 4)
    _, status = os.waitpid(pid, 0)
    sys._trial_gate.set()
    importer.join()
    return {"whole_in_child": status == 0}


def scenario_fork_module_lock_owned(which):
    """Another thread owns the import lock of a module not yet in ``sys.modules`` (the
    stage of an import where its spec is found and an extension's shared library is
    loaded), and lets it go when a third thread opens a gate 0.2 s later, while this
    thread forks: whether the child found that import over (3.7+ waits for it)."""
    _trial(which)[0].patch(**_trial(which)[1])  # the packages' fork handlers, registered
    bootstrap = sys.modules["_frozen_importlib"]
    gate, owned, over = threading.Event(), threading.Event(), []

    def own():
        lock = bootstrap._get_module_lock("_trial_module_not_yet_loaded")
        lock.acquire()
        owned.set()
        gate.wait(60)
        over.append(True)
        lock.release()

    owner = threading.Thread(target=own)
    owner.start()
    owned.wait(60)
    threading.Timer(0.2, gate.set).start()
    pid = os.fork()
    if pid == 0:
        signal.alarm(5)
        os._exit(0 if over else 4)
    _, status = os.waitpid(pid, 0)
    gate.set()
    owner.join()
    return {"over_in_child": status == 0}


def scenario_fork_while_an_import_waits_for_this_thread(which):
    """Another thread is inside a module's first import whose body waits for a lock this
    thread holds while it forks: whether the fork returned, and the child answered."""
    sys._trial_lock = threading.Lock()
    signal.alarm(30)  # a fork that waits for ever ends the scenario, and fails it
    with sys._trial_lock:
        _, importer = _import_in_a_thread(which, "waits_for_forker",
                                          "with sys._trial_lock:\n    pass\n")
        pid = os.fork()
        if pid == 0:
            signal.alarm(5)
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    importer.join()
    signal.alarm(0)
    return {"forked": True, "answered": status == 0}


if __name__ == "__main__":
    sys.exit(run_scenario(globals(), sys.argv[1:]))
