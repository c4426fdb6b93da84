"""How much of a sampled check one environment runs: the CI's budget, in one place.

The property tests (hypothesis), the exhaustive codec check and the interleavings of
``patch()``/``unpatch()`` between ``feed()`` calls try the same code on every
interpreter of the matrix. They run in whole where a difference between
interpreters is likeliest to show, 2.7.18, 3.8.18 and 3.13.0 (the oldest, the middle
and the newest CPython), and with ``BACKPORT_FULL_TRIALS=1``; elsewhere
(3.6, 3.7, 3.9-3.12, PyPy and the simulated unfixed stdlibs) a third of each
property's examples, at least 20, and one first byte in eight, from an offset each
interpreter's version picks, so that the matrix as a whole still tries them all. A
run of the matrix spends about 400 s on the properties and 215 s on the codec check
in whole, everywhere.
"""

import os
import sys
import zlib

#: Whether this environment runs the sampled checks in whole.
THOROUGH = (os.environ.get("BACKPORT_FULL_TRIALS") == "1"
            or (sys.version_info[:2] in ((2, 7), (3, 8), (3, 13))
                and not os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB")
                and "__pypy__" not in sys.builtin_module_names))

#: This interpreter's offset in a stride: the same in every process of one version.
OFFSET = zlib.crc32(sys.version.encode("ascii", "replace"))


def examples(count):
    """The ``max_examples`` of a property that runs *count* in whole."""
    return count if THOROUGH else max(count // 3, 20)


def stride(values, step=8):
    """*values* in whole, or one in *step* of them, from this interpreter's offset."""
    values = list(values)
    return values if THOROUGH else values[OFFSET % step::step]
