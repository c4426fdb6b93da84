"""The ledger: one record of what a package bound where, written as each binding changes.

Why: ``patch()`` and ``unpatch()`` must stay right whatever stops them. A
signal handler's exception (the ``KeyboardInterrupt`` of a SIGINT, a
timeout's) lands between any two bytecodes of Python code, so a flag set
before or after the work can say "patched" over originals or "unpatched"
over replacements. Here each binding is changed and recorded in one step
no handler can split (:func:`at_once`); whether a package is patched is
read from the bindings its ledger lists; and ``report``, the "a patch()
finished" mark, is set by the last step of ``patch()`` and cleared by the
first of ``unpatch()``, so a second call of either finishes what an
interrupted one began. (gevent.monkey keeps its one saved dict the same way.)

:class:`Lock` is the packages' state lock, which such an exception cannot
leave held for ever by its own thread.
"""

import sys

from ._fork import per_process

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    from thread import allocate_lock, get_ident
else:
    from _thread import allocate_lock, get_ident

__all__ = ["at_once", "Entry", "Ledger", "Lock", "ABSENT", "mark_busy", "called_inside"]

#: The *old* value of a place that held nothing: putting it back deletes the name
#: (a method a fix adds to a class that only inherited it, such as ``__ior__``).
ABSENT = type("Absent", (object,), {"__repr__": lambda self: "ABSENT", "__slots__": ()})()

_setitem = dict.__setitem__


def at_once(*steps):
    """Run *steps*, ``(C function, arguments...)`` tuples, one after the other, all from C.

    Why: a signal handler (and a tracer) runs only between two bytecodes of a
    Python frame. Here ``chain`` runs each step's ``starmap``, and ``starmap``
    calls the step's function: the interpreter's own code calls every step, so no
    bytecode runs between two of them, as in CPython's own C code. Every step is
    built before the first runs, and ``list`` drains them (a ``for`` loop would run
    bytecodes between two steps). The same holds on PyPy, whose ``itertools`` is
    interpreter-level code (its ``functools.partial``, used here before, is Python
    code there: a handler could land inside it, issue 53).

    ``itertools`` is imported here, by the first ``patch()``: 2.7 does not load it
    at start-up, and importing a fix package loads nothing outside it.
    """
    from itertools import chain, starmap
    list(chain.from_iterable([starmap(step[0], (step[1:],)) for step in steps]))


class Entry(tuple):
    """One binding a package changed: ``holder[key]`` (or ``holder.key``) from *old* to *new*."""

    __slots__ = ()

    def __new__(cls, holder, key, old, new, label, attribute=False):
        return tuple.__new__(cls, (holder, key, old, new, label, attribute))

    holder = property(lambda self: self[0])
    key = property(lambda self: self[1])
    old = property(lambda self: self[2])
    new = property(lambda self: self[3])
    label = property(lambda self: self[4])

    def current(self, default=None):
        """What the place holds now (*default* when it holds nothing); a class's own
        attribute is read from its ``__dict__`` (2.7's getattr makes a new unbound method)."""
        if self[5] == "class":
            return self[0].__dict__.get(self[1], default)
        if self[5]:
            return getattr(self[0], self[1], default)
        return self[0].get(self[1], default)

    def store(self, value):
        """The step that binds *value* there (:data:`ABSENT`: deletes the name), for
        :func:`at_once`."""
        if value is ABSENT:
            return (delattr, self[0], self[1]) if self[5] else (dict.pop, self[0], self[1], None)
        if self[5]:
            return (setattr, self[0], self[1], value)
        return (_setitem, self[0], self[1], value)

    def live(self):
        """Whether the place still holds the package's *new* value."""
        return self.current() is self[3]


class Ledger(object):
    """What one package has bound, in the order it bound it."""

    def __init__(self):
        self._entries = {}  # serial -> Entry: popped in C, never compared
        self._serial = 0  # written under the package's lock
        #: The report of the ``patch()`` that finished, until ``unpatch()`` starts.
        self.report = None

    def bind(self, holder, key, new, label, attribute=False, old=None):
        """Bind ``holder[key]`` (*attribute*: ``holder.key``; ``"class"``: a class's own
        attribute) to *new* and record it, at once.

        *old* (default: read now) is what ``unpatch()`` puts back."""
        if old is None:
            old = getattr(holder, key) if attribute else holder[key]
        entry = Entry(holder, key, old, new, label, attribute)
        self._serial += 1
        at_once((_setitem, self._entries, self._serial, entry), entry.store(new))
        return entry

    def entries(self):
        """The entries, oldest first."""
        entries = self._entries
        return [entries[serial] for serial in sorted(list(entries)) if serial in entries]

    def live(self):
        """The entries whose place still holds the package's value."""
        return [entry for entry in self.entries() if entry.live()]

    def bound(self):
        """Whether any place still holds one of the package's values: "is patched"."""
        return any(entry.live() for entry in self.entries())

    def replacements(self):
        """``{id(new): (new, old)}`` of every entry: the map ``unpatch()`` rebinds aliases by."""
        return dict((id(entry.new), (entry.new, entry.old)) for entry in self.entries())

    def unbind(self):
        """Put back each original still replaced, newest first, dropping each entry with it.

        Returns ``(labels restored, labels left alone)``: a place someone else
        has rebound since is left alone."""
        restored, left = [], []
        entries = self._entries
        for serial in sorted(list(entries), reverse=True):
            entry = entries.get(serial)
            if entry is None:
                continue
            if entry.live():
                at_once(entry.store(entry.old), (entries.pop, serial, None))
                restored.append(entry.label)
            else:
                entries.pop(serial, None)
                left.append(entry.label)
        return restored, left


#: The code of each package's ``patch()``, ``unpatch()`` and health checks (:func:`mark_busy`).
_BUSY = set()


def mark_busy(*functions):
    """Record *functions* as ones a health check must not start an import inside."""
    _BUSY.update(getattr(function, "__func__", function).__code__ for function in functions)


def called_inside():
    """Whether the caller's caller runs inside a function :func:`mark_busy` names, in
    this thread: a signal handler, a ``gc`` callback or a ``__del__`` that landed in it.

    Why: such a handler that imports a module the interrupted call is importing
    finds it half-made (an ImportError on 3.6 and PyPy, issue 53), and one that
    probes may read a module while it is being patched. A health check that
    finds itself inside answers from what is loaded and known, starting no
    import and no probe. Walks the stack: a few microseconds, on no hot path."""
    frame = sys._getframe(2)
    busy = _BUSY
    while frame is not None:
        if frame.f_code in busy:
            return True
        frame = frame.f_back
    return False


class _Held(object):
    """Who holds a :class:`Lock` in this process, and from which frames."""

    def __init__(self):
        self.lock = allocate_lock()
        self.owner = None
        self.frames = []


class Lock(object):
    """A re-entrant lock for a package's ``patch()``/``unpatch()``/``status()``.

    Why not ``RLock``: up to 3.9 a signal handler's exception can land
    between acquiring a ``with`` statement's lock and entering its block, or
    between its block and ``__exit__`` (bpo-29988), so the lock stays held by
    a thread that has left the block, and every other thread then waits for
    ever. Each hold is kept with the frame that took it: when the owner
    enters again, holds of frames no longer running are dropped, and the
    last ``__exit__`` of a running frame releases. A forked child gets a new
    lock (``_fork.per_process``).
    """

    def __init__(self):
        self._held = per_process(_Held)

    def __enter__(self):
        held = self._held()
        me = get_ident()
        caller = sys._getframe(1)
        if held.owner != me:
            # Taken, owned and held by this frame in one step: a signal handler that
            # asks status() between them would find the lock its own thread's and
            # release it on leaving, under the frame that took it (issue 53).
            at_once((held.lock.acquire,), (setattr, held, "owner", me),
                    (setattr, held, "frames", [caller]))
            return self
        held.frames = _running(held.frames, caller.f_back) + [caller]  # one store
        return self

    def __exit__(self, kind, value, traceback):
        held = self._held()
        if held.owner != get_ident():  # a forked child's copy of a parent's hold
            return
        caller = sys._getframe(1)
        frames = [frame for frame in _running(held.frames, caller) if frame is not caller]
        if frames:
            held.frames = frames  # one store: a handler's hold comes and goes around it
        else:  # the last hold: dropped, disowned and released in one step
            at_once((setattr, held, "frames", frames), (setattr, held, "owner", None),
                    (held.lock.release,))


def _running(frames, top):
    """Those of *frames* that are *top* or below it: the holds still running."""
    running = set()
    while top is not None:
        running.add(id(top))
        top = top.f_back
    return [frame for frame in frames if id(frame) in running]
