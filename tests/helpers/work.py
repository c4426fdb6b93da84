"""How the tests measure that work grows linearly: CPU time at n and 4n, in one run.

Linear work grows about 4x from n to 4n, quadratic work 16x; the tests ask for
less than 8x (the geometric middle). Three things keep that ratio honest under
load and on PyPy, where a figure taken once ranged from 1x to 13x for the same
linear work (its JIT still compiling the small size while the large one ran, and
a collection of earlier garbage landing inside one call):

* both sizes run alternately :data:`WARM_UPS` times before any timing (imports,
  caches, and on PyPy the JIT's traces: once is enough for the first two);
* no call pays for another's garbage: each call's garbage is collected before
  the next. On CPython the collector is off while they run and the young
  generations alone are collected, where with the collector off all of it
  stays (a full collection walks the whole test session's heap: late in a
  run, four fifths of these tests' time); on PyPy, a full collection;
* each size's figure is the least of several tries: load only ever adds time.

With these, PyPy gave 3.2x to 4.3x for the same work, CPython 3.8x to 4.0x;
later, on PyPy 3.9.16, one compressed-form case read 2.4x to 8.5x alone (hence
its doubled tries).
"""

import gc
import platform
import sys
import time

__all__ = ["cpu", "growth"]

#: 2.7's ``time.clock()`` is the process's CPU time.
_clock = time.clock if sys.version_info[0] == 2 else time.process_time

_PYPY = platform.python_implementation() == "PyPy"

#: Alternate runs of both sizes before the first timed one.
WARM_UPS = 3 if _PYPY else 1

#: How many times the tries asked for: on PyPy a collection can still land in a
#: timed call (a linear figure read 2.4x to 8.5x in one process): twice as many.
_MORE_TRIES = 2 if _PYPY else 1


def _collect():
    """Collect what the last call left: PyPy's collections are always whole."""
    if _PYPY:
        gc.collect()
    else:
        gc.collect(1)


class _CollectorOff(object):
    """CPython: the cyclic collector off inside, after one whole collection, and as it
    was after (so that these nest). PyPy: left on, each call preceded by a whole
    collection (with its major collections off, these tests took half as long again
    and a linear figure once read 8.5x)."""

    def __enter__(self):
        self.was_on = gc.isenabled() and not _PYPY
        if self.was_on:
            gc.collect()
            gc.disable()

    def __exit__(self, *exc_info):
        if self.was_on:
            gc.enable()


def cpu(call, tries=5):
    """The least CPU time ``call()`` took in *tries* runs, each after the last one's
    garbage is collected (never below a microsecond, so that it can divide)."""
    best = None
    with _CollectorOff():
        for _ in range(tries * _MORE_TRIES):
            _collect()
            start = _clock()
            call()
            spent = _clock() - start
            best = spent if best is None else min(best, spent)
    return max(best, 1e-6)


def growth(small, large, tries=5):
    """How many times the CPU time of ``large()`` is that of ``small()``, both warmed up."""
    with _CollectorOff():
        for _ in range(WARM_UPS):
            small()
            large()
            _collect()
        return cpu(large, tries) / cpu(small, tries)
