"""Whether this interpreter's own parameter repr is the unfixed one (bpo-42938).

Why: the answer is about the interpreter, so it must not depend on who has
patched the type since (this package, a copy of it vendored under another
name, another tool). The stock C repr is called through its own slot wrapper,
never through whatever ``repr()`` runs now; when nobody holds that wrapper
any more, the upstream releases decide.
"""

import ctypes
import sys

from . import _layout

__all__ = ["interpreter_is_vulnerable"]

_UNFIXED = "1.500000"  # what sprintf("%f") makes of 1.5; the fix prints repr(1.5)

#: The first release of each branch with the fix (bpo-42938, GH-24239 and its
#: backports); 3.10.0 had it from the start, 2.7 and 3.5 and older never got it upstream.
_FIXED_IN = {(3, 6): (3, 6, 13), (3, 7): (3, 7, 10), (3, 8): (3, 8, 8), (3, 9): (3, 9, 2)}


def interpreter_is_vulnerable():
    """True if the C repr ``CArgObject`` was created with prints doubles with ``%f``.

    Why calling it is safe: 1.5 cannot overflow. Without the stock slot
    wrapper the release decides, so a build with a downstream fix (Fedora's
    2.7) then counts as vulnerable: an unknown is never reported as safe.
    """
    if _layout.NOT_APPLICABLE is not None:
        return False  # found by structure: no C repr at all
    stock = _layout.stock_repr()
    if stock is not None:
        raw = type(ctypes.c_double).__dict__["from_param"]  # the metaclass method, never patched
        return _UNFIXED in stock(raw(ctypes.c_double, 1.5))
    release = tuple(sys.version_info[:3])
    return release < _FIXED_IN.get(release[:2], (3, 10))
