"""The patch state: what ``patch()`` rebound, so ``unpatch()`` can put back the exact original.

Why: one object and one lock serialise ``patch()``, ``unpatch()`` and
``is_vulnerable()`` across threads; a forked child gets a new lock.
"""

from _cpython_security._fork import per_process

from ._compat import allocate_lock

__all__ = ["state"]


class _State(object):
    def __init__(self):
        self._lock = per_process(allocate_lock)
        #: The report of the ``patch()`` that patched, until ``unpatch()``.
        self.report = None
        #: ``[(namespace, key, original, replacement, "module.key")]`` rebound by ``patch()``.
        self.bindings = []
        #: The stock ``_unquote``, saved by the first ``patch()`` that replaced it.
        self.original = None
        #: The fix's copy ``patch()`` bound in its place.
        self.replacement = None
        #: Whether the stock ``_unquote`` is the quadratic one; None until checked.
        self.vulnerable = None

    @property
    def lock(self):
        """Held by every read and write below (not re-entrant)."""
        return self._lock()


state = _State()
