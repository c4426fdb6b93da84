"""The patch state: what ``patch()`` changed, so ``unpatch()`` can put back the exact originals.

Why: one object and one lock serialise ``patch()`` and ``unpatch()`` across
threads. Converter mode binds each ``from_param`` through the shared engine's
ledger (``_cpython_security._ledger``), which records a binding in the step
that makes it, so no interrupt can leave a class patched and unrecorded, or
recorded and unpatched. What slot mode has in force is not recorded here but
read from the type itself, so an interrupted call can never make this state
disagree with it, and the health checks need no lock.
"""

import sys

from ._compat import allocate_lock, get_ident
from _cpython_security._fork import per_process
from _cpython_security._ledger import ABSENT, Ledger, at_once  # steps no signal can split

__all__ = ["state", "ABSENT", "at_once"]


class _Lock(object):
    """The lock of ``patch()`` and ``unpatch()``, as a ``with`` statement's context manager.

    Why not the bare lock: up to 3.9 a signal handler's exception can land
    between a ``with`` block's last line and the call of ``__exit__`` (bpo-29988),
    leaving the lock held by a thread that has left the block. The lock and
    its owner are set and cleared together (``at_once``), so a thread
    that finds its own lock held while no ``patch()``/``unpatch()`` of it is
    running takes it over; one that finds it held by a call it interrupted
    (a signal handler, a ``gc`` callback, a ``__del__``) gets a RuntimeError
    rather than waiting forever.
    """

    def __init__(self):
        self._lock = per_process(allocate_lock)
        self.owner = None  # the thread holding the lock, set and cleared with it
        self.entries = ()  # the code of the functions that take the lock

    def __enter__(self):
        me = get_ident()
        if self.owner == me:
            if self._running():
                raise RuntimeError("patch() and unpatch() cannot be called inside patch() or "
                                   "unpatch() of the same thread (a signal handler, a gc "
                                   "callback or __del__)")
            return self  # left held by an interrupted call of this thread
        at_once((self._lock().acquire,), (setattr, self, "owner", me))
        return self

    def __exit__(self, kind, value, traceback):
        at_once((setattr, self, "owner", None), (self._lock().release,))

    def _running(self):
        """Whether a function that takes the lock is running in this thread, below the caller."""
        frame = sys._getframe(3)  # this, __enter__, the caller, then what the caller interrupted
        while frame is not None:
            if frame.f_code in self.entries:
                return True
            frame = frame.f_back
        return False


class _State(object):
    def __init__(self):
        #: Held by ``patch()`` and ``unpatch()``, never by the health checks (a
        #: signal handler may run them while its thread holds it); a forked child
        #: gets a new one.
        self.lock = _Lock()
        #: The report of the ``patch()`` that patched, until ``unpatch()``.
        self.report = None
        #: Converter mode: each ``from_param`` bound in a class ``__dict__``, with
        #: the entry it replaced (``ABSENT``: inherited from the metaclass).
        self.ledger = Ledger()
        #: Whether the stock repr is the unfixed one (bpo-42938); None until checked.
        self.vulnerable = None


state = _State()
