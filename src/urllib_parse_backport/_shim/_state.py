"""The shim's state: the ledger of what ``patch()`` bound where, and what it decided.

One instance, :data:`state`. The ledger (``_cpython_security._ledger``)
records each binding as it changes, so ``unpatch()`` puts back the exact
objects and ``is_patched()`` reads the bindings themselves; its ``report``
is set by the last step of ``patch()`` and cleared by the first of
``unpatch()``. The first original wins (as in gevent.monkey): a patch over a
patch saves nothing new.
"""

from _cpython_security._ledger import Ledger, Lock

__all__ = ["state"]


class _State(object):
    def __init__(self):
        #: Held by ``patch()``, ``unpatch()``, ``status()`` and the post-import
        #: hook (re-entrant); a forked child gets a new one.
        self.lock = Lock()
        #: What patch() bound where: module names, aliases, ``__code__`` swaps.
        self.ledger = Ledger()
        #: [(module name, its namespace, attribute, replacement)]: the targets'
        #: own bindings, by which ``patch()`` tells a module imported anew.
        self.primary = []
        #: id(original) -> (original, replacement): patch/unpatch/patch reuses objects.
        self.replacement_cache = {}
        #: diagnose() of the stdlib parse_qsl taken before patching.
        self.stdlib_facts = None
        #: The CVEs the current patch() leaves out.
        self.leave_out = frozenset()
        #: _split.diagnose() of the stdlib urlsplit before patching, and its plan.
        self.split_lacks = None
        self.split_plan = None
        #: Caches of originals (3.11+'s ``lru_cache`` urlsplit) that patch()
        #: emptied, emptied again by unpatch(): [callable].
        self.cleanups = []
        #: Whether the framework adapters have been applied since the last unpatch().
        self.frameworks = False
        #: Adapters waiting for their module's import: {module name: [adapter]},
        #: and the post-import hook that applies them.
        self.waiting = {}
        self.hook = None

    @property
    def report(self):
        """The report of the ``patch()`` that finished, until ``unpatch()`` starts."""
        return self.ledger.report

    @report.setter
    def report(self, report):
        self.ledger.report = report

    def changed_something(self):
        """Whether a binding ``patch()`` made still holds its value (no lock needed)."""
        return self.ledger.bound()


state = _State()
