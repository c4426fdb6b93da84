"""How the tests measure that work grows linearly: CPU time at n and 4n, in one run.

Linear work grows about 4x from n to 4n, quadratic work 16x; the tests ask for
less than 8x (the geometric middle). Three things keep that ratio honest under
load and on PyPy, where a figure taken once ranged from 1x to 13x for the same
linear work (its JIT still compiling the small size while the large one ran, and
a collection of earlier garbage landing inside one call):

* both sizes run alternately :data:`WARM_UPS` times before any timing (imports,
  caches, and on PyPy the JIT's traces: once is enough for the first two);
* a full collection precedes each timed call, so no call pays for another's garbage;
* each size's figure is the least of several tries: load only ever adds time.

With these, PyPy gave 3.2x to 4.3x for the same work, CPython 3.8x to 4.0x.
"""

import gc
import platform
import sys
import time

__all__ = ["cpu", "growth"]

#: 2.7's ``time.clock()`` is the process's CPU time.
_clock = time.clock if sys.version_info[0] == 2 else time.process_time

#: Alternate runs of both sizes before the first timed one.
WARM_UPS = 3 if platform.python_implementation() == "PyPy" else 1


def cpu(call, tries=5):
    """The least CPU time ``call()`` took in *tries* runs, each after a full collection
    (never below a microsecond, so that it can divide)."""
    best = None
    for _ in range(tries):
        gc.collect()
        start = _clock()
        call()
        spent = _clock() - start
        best = spent if best is None else min(best, spent)
    return max(best, 1e-6)


def growth(small, large, tries=5):
    """How many times the CPU time of ``large()`` is that of ``small()``, both warmed up."""
    for _ in range(WARM_UPS):
        small()
        large()
    return cpu(large, tries) / cpu(small, tries)
