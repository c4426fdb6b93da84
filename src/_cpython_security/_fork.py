"""Objects a forked child makes anew: a lock held at ``fork()`` is never held in the child.

Why: ``fork()`` copies a lock in the state it had, and a thread of the parent
that held it (a health check inside ``status()``) does not exist in the child,
so the child would hang on its first ``patch()``, ``is_patched()`` or
``status()``. Both packages' state locks are made here. An import another
thread had half-done is settled before the fork (``settle_before_fork``) and
forgotten in the child (``settle_in_child``), which on 2.7 and 3.6 also makes
anew the :mod:`logging` locks a gone thread held (3.7+ does that itself).
"""

import os
import sys

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    from thread import get_ident as _get_ident
else:
    from _thread import get_ident as _get_ident

__all__ = ["per_process", "settle_before_fork", "settle_in_child"]

_register_at_fork = getattr(os, "register_at_fork", None)  # 3.7+ (bpo-16500)
_settled = [os.getpid()]


def settle_in_child(_from_fork_hook=False):
    """In a forked child, forget the imports that threads of the parent left half-done.

    Why: ``fork()`` copies only the thread that calls it. A module another
    thread was importing stays in ``sys.modules`` half-made, and its import
    lock (3.x: one per module, ``importlib._bootstrap._module_locks``) stays
    held by a thread the child does not have, so the child's own import of
    it waits for ever. Here each such lock is dropped (the next import makes
    a new one) with its half-made module, so that the child imports it
    afresh. Runs once per process: from ``os.register_at_fork`` (3.7+), and
    at the start of each ``patch()``/``unpatch()`` (3.6: one ``getpid()``).
    2.7 resets its one import lock in the child itself. A module lock no
    thread owns whose inner mutex is held (another thread was inside its
    ``acquire()``) is dropped as well, while the caller is the process's
    only thread. On 2.7 and 3.6 this also renews :mod:`logging`'s locks
    (``_renew_logging_locks``)."""
    pid = os.getpid()
    if _settled[0] == pid:
        return
    _settled[0] = pid
    # In the fork hook the caller is the child's one thread; PyPy still lists the
    # parent's threads in sys._current_frames() there.
    alone = _from_fork_hook or _only_thread()
    _renew_logging_locks(alone)
    bootstrap = sys.modules.get("_frozen_importlib")
    locks = getattr(bootstrap, "_module_locks", None)
    if not isinstance(locks, dict):
        return
    me = _get_ident()
    for name, ref in list(locks.items()):
        lock = ref() if callable(ref) else None
        owner = getattr(lock, "owner", None)
        if owner is None or owner == me:
            # Taken by no thread, but another may have been inside acquire() or
            # release(), holding the lock's own mutex (seen on PyPy, whose
            # imports of loaded modules go through it): dropped too.
            if not (alone and _mutex_held(lock)):
                continue
        locks.pop(name, None)
        module = sys.modules.get(name)
        if getattr(getattr(module, "__spec__", None), "_initializing", False):
            sys.modules.pop(name, None)
    blocking = getattr(bootstrap, "_blocking_on", None)
    # What the parent's threads waited for: no deadlock to detect. A dict before
    # 3.12; from 3.12 importlib's own _WeakValueDictionary, whose dict is .data.
    blocking = getattr(blocking, "data", blocking)
    if isinstance(blocking, dict):
        for ident in [ident for ident in list(blocking) if ident != me]:
            blocking.pop(ident, None)


def _only_thread():
    """Whether the caller is the process's one thread (3.6: called after the fork)."""
    frames = getattr(sys, "_current_frames", None)
    return frames is not None and len(frames()) == 1


def _held_elsewhere(lock):
    """Whether another thread than the caller holds *lock*: tried without waiting (a
    lock the caller holds re-entrantly is taken again and let go)."""
    if lock.acquire(False):
        lock.release()
        return False
    return True


def _mutex_held(module_lock):
    """Whether the mutex inside an importlib ``_ModuleLock`` (3.12+: an ``RLock``) is held."""
    mutex = getattr(module_lock, "lock", None)
    return mutex is not None and _held_elsewhere(mutex)


def _renew_logging_locks(alone):
    """2.7 and 3.6: make anew each lock of :mod:`logging` that a gone thread holds.

    Why: ``fork()`` copies logging's module lock (``getLogger``,
    ``addHandler``) and each handler's lock as they were. One that another
    thread of the parent held stays held in the child for good, and the
    child's first ``patch()`` (it looks its logger up, and logs through the
    application's handlers) would wait for ever. 3.7+ renews them itself in
    every child (bpo-6721). Here a lock is renewed only when its holder is
    gone: 2.7's lock names its holder, gone when it is not a thread of this
    process; 3.6's does not, and a lock another thread holds is taken for a
    gone thread's only while the caller is the process's one thread (*alone*:
    so a lock a thread the child started holds is never taken from it)."""
    logging = sys.modules.get("logging")
    threading = sys.modules.get("threading")
    if logging is None or threading is None or hasattr(
            logging, "_after_at_fork_child_reinit_locks"):  # 3.7+ renews its own
        return
    if _held_by_a_gone_thread(getattr(logging, "_lock", None), threading, alone):
        logging._lock = threading.RLock()
    for ref in list(getattr(logging, "_handlerList", ())):
        handler = ref()
        if _held_by_a_gone_thread(getattr(handler, "lock", None), threading, alone):
            handler.createLock()


_UNNAMED = object()


def _held_by_a_gone_thread(lock, threading, alone):
    if lock is None or not hasattr(lock, "acquire"):
        return False
    owner = getattr(lock, "_RLock__owner", _UNNAMED)  # 2.7's RLock, written in Python
    if owner is not _UNNAMED:
        if owner is not None:
            return owner not in threading._active
        # Its acquire() takes the inner lock, then names the owner (release(): the other
        # way round). A fork between the two leaves the inner lock held by nobody named:
        # a gone thread's when the child's threading knows no other thread.
        block = getattr(lock, "_RLock__block", None)
        return (block is not None and len(threading._active) == 1
                and _held_elsewhere(block))
    return alone and _held_elsewhere(lock)


#: How long a ``fork()`` waits at most for other threads' half-done imports (seconds).
HALF_IMPORT_WAIT = 3.0


def _finish_half_imports():
    """Before each ``fork()`` (3.7+), wait until no other thread is half-way through an
    import, for ``HALF_IMPORT_WAIT`` seconds at most.

    Why: a thread stopped by the fork inside an import may hold more than the
    module's import lock, which the child drops: PyPy's ``ssl`` reads its
    ``_ssl`` module while importing, and a child forked then waited for ever in
    its own ``import ssl`` (seen in the fork trial, through ``status()``'s
    import of a framework). The wait is bounded and takes no lock: an import
    that waits for something the forking thread holds (a lock of its own, or
    one a fork handler took) would otherwise never end, and the fork with it.
    Past the bound the child settles what is left (``settle_in_child``). Only
    plain modules and importlib's lock table are read, so no module's own code
    runs; the caller's own half-done imports are not waited for.

    An import is half-done from the moment its thread owns the module's import
    lock: the module enters ``sys.modules`` only after its spec is found and,
    for an extension, after the dynamic loader ran. A child forked while another
    thread was inside the loader inherits the loader's state half-written (on
    PyPy its next ``import ssl`` failed with an undefined symbol, or waited for
    ever), which nothing in the child can repair; the lock table shows that
    stage. What stays open is the instant between this check and the fork
    itself, when another thread may start a new import: a hazard of every
    ``fork()`` in a threaded process, which this wait narrows but cannot close."""
    import time  # a built-in module on 3.x; 2.7, which has none of this, never loads it
    module_type = type(sys)
    locks = getattr(sys.modules.get("_frozen_importlib"), "_module_locks", None)
    me = _get_ident()

    def others_half_done():
        if isinstance(locks, dict):
            for ref in list(locks.values()):
                lock = ref() if callable(ref) else None
                if getattr(lock, "owner", None) not in (None, me):
                    return True
        for name, module in list(sys.modules.items()):
            if type(module) is not module_type or getattr(
                    module.__dict__.get("__spec__"), "_initializing", False) is not True:
                continue
            ref = locks.get(name) if isinstance(locks, dict) else None
            lock = ref() if callable(ref) else None
            if getattr(lock, "owner", None) != me:
                return True
        return False

    deadline = time.time() + HALF_IMPORT_WAIT
    while others_half_done() and time.time() < deadline:
        time.sleep(0.001)


if _register_at_fork is not None:
    _register_at_fork(before=_finish_half_imports,
                      after_in_child=lambda: settle_in_child(_from_fork_hook=True))


def settle_before_fork(own, stdlib, eager=()):
    """Before each ``fork()`` (3.7+), import the modules *own* and *stdlib* in the parent.

    Why: a thread of the parent in the middle of a module's first import holds
    that module's import lock from before the module is even in
    ``sys.modules``, and the child inherits the lock held: the child's own
    import of the module (``patch()`` imports its modes when first used)
    would then wait for ever. Importing it here waits for such an import to
    finish, so the child finds every module whole. A module of the caller's
    (*own*) is imported even when nobody has started to; a *stdlib* one
    only when it is already in ``sys.modules``, since importing ``logging``
    here would register its own fork handlers half-way through this fork.
    2.7 resets its one import lock in the child. 3.6 has per-module locks but
    no hook: there the modules *eager* (the caller's, which import nothing
    outside it) are imported now, before the application starts threads."""
    if _register_at_fork is None:
        if sys.version_info[0] >= 3:
            for name in eager:
                __import__(name)
        return
    modules = sys.modules

    def settle():
        for name in list(own) + [name for name in stdlib if name in modules]:
            try:
                __import__(name)
            except ImportError:  # a module this interpreter lacks: the child says so
                pass

    _register_at_fork(before=settle)


def per_process(factory):
    """Return ``get()``: the ``factory()`` object of this process, made anew in a forked child.

    3.7+: ``os.register_at_fork`` replaces it in the child as ``fork()``
    returns. 2.7 and 3.6 have no such hook, and wrapping ``os.fork`` would
    change a function the application owns and still miss a fork made from C;
    there ``get()`` compares ``os.getpid()`` (one system call) with the pid
    the object was made for, and the child makes its own on first use.
    """
    if _register_at_fork is not None:
        current = [factory()]

        def renew():
            current[0] = factory()

        def get():
            return current[0]

        _register_at_fork(after_in_child=renew)
        return get

    getpid = os.getpid
    made = {getpid(): factory()}

    def get_checked():
        pid = getpid()
        try:
            return made[pid]
        except KeyError:
            pass
        # setdefault is atomic under the GIL: two threads of the child that
        # get here at once both use the object stored first.
        found = made.setdefault(pid, factory())
        for stale in [key for key in made if key != pid]:
            made.pop(stale, None)
        return found

    return get_checked
