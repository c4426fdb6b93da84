"""Objects a forked child makes anew: a lock held at ``fork()`` is never held in the child.

Why: ``fork()`` copies a lock in the state it had, and a thread of the parent
that held it (a health check inside ``status()``) does not exist in the child,
so the child would hang on its first ``patch()``, ``is_patched()`` or
``status()``. Both packages' state locks are made here.
"""

import os

__all__ = ["per_process"]

_register_at_fork = getattr(os, "register_at_fork", None)  # 3.7+ (bpo-16500)


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
