"""The patch state: what ``patch()`` changed, so ``unpatch()`` can put back the exact originals.

Why: one object and one lock serialise ``patch()``, ``unpatch()`` and the
vulnerability check across threads; the first original wins (as in
gevent.monkey), so a patch over a patch saves nothing new.
"""

from ._compat import allocate_lock
from _cpython_security._fork import per_process

__all__ = ["state", "ABSENT"]

#: Marks "``from_param`` was inherited from the metaclass" (no entry in the class ``__dict__``).
ABSENT = object()


class _State(object):
    def __init__(self):
        self._lock = per_process(allocate_lock)
        #: The report of the ``patch()`` that patched, until ``unpatch()``.
        self.report = None
        #: Slot mode: the verified ``_slot.Slots`` while they hold the safe repr.
        self.slots = None
        #: Converter mode: type -> (name, original ``__dict__`` entry or ABSENT).
        self.saved = {}
        #: Converter mode: type -> the classmethod ``patch()`` put in its ``__dict__``.
        self.installed = {}
        #: Whether the stock repr is the unfixed one (bpo-42938); None until checked.
        self.vulnerable = None

    @property
    def lock(self):
        """Held by every read and write below (not re-entrant); a forked child gets a new one."""
        return self._lock()

    def changed_something(self):
        return self.slots is not None or bool(self.installed)


state = _State()
