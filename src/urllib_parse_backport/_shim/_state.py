"""The shim's state: what ``patch()`` changed, so ``unpatch()`` can put back the exact objects.

One instance, :data:`state`; every read and write holds its lock. The first
original wins (as in gevent.monkey): a patch over a patch saves nothing new.
"""

from _cpython_security._fork import per_process

from .._compat import RLock

__all__ = ["state"]


class _State(object):
    def __init__(self):
        self._lock = per_process(RLock)
        #: [(namespace dict, key, original, replacement, label)]
        self.bindings = []
        #: [(original function, its original __code__, label)]
        self.codes = []
        #: id(original) -> (original, replacement): patch/unpatch/patch reuses objects.
        self.replacement_cache = {}
        #: diagnose() of the stdlib parse_qsl taken before patching.
        self.stdlib_facts = None
        #: The CVEs the current patch() leaves out.
        self.leave_out = frozenset()
        #: _split.diagnose() of the stdlib urlsplit before patching, and its plan.
        self.split_lacks = None
        self.split_plan = None
        #: Caches patch() emptied, emptied again by unpatch() (they hold results of
        #: the other urlsplit): [callable].
        self.cleanups = []
        #: The report of the patch() that patched, until unpatch().
        self.report = None
        #: Whether the framework adapters have been applied since the last unpatch().
        self.frameworks = False
        #: Adapters waiting for their module's import: {module name: [adapter]},
        #: and the post-import hook that applies them.
        self.waiting = {}
        self.hook = None

    @property
    def lock(self):
        """Held by every read and write below (re-entrant); a forked child gets a new one."""
        return self._lock()

    def changed_something(self):
        return bool(self.bindings or self.codes)


state = _State()
