"""The patch state: the ledger of what ``patch()`` rebound, and the lock of the calls.

Why: the ledger (``_cpython_security._ledger``) records each binding as it
changes, so ``unpatch()`` puts back the exact original and ``is_patched()``
reads the bindings themselves; one lock serialises ``patch()``,
``unpatch()`` and ``status()`` across threads; a forked child gets a new one.
"""

from _cpython_security._ledger import Ledger, Lock

__all__ = ["state"]


class _State(object):
    def __init__(self):
        #: Held by ``patch()``, ``unpatch()`` and ``status()`` (re-entrant).
        self.lock = Lock()
        #: What ``patch()`` bound where; its ``report`` is the report of the
        #: ``patch()`` that finished, until ``unpatch()`` starts.
        self.ledger = Ledger()
        #: Whether the stock ``_unquote`` is the quadratic one; None until checked.
        self.vulnerable = None


state = _State()
