"""What this interpreter has that some tests need: CPython's C repr, tracemalloc.

PyPy (Debian's ``pypy3``) runs the package too. Its ctypes is written in
Python: ``from_param`` returns an instance of the ctypes type itself, with a
Python repr, and there is no C ``PyCArg_repr`` (bpo-42938) to fix; it has no
``tracemalloc``, and its ``memoryview`` words its TypeError its own way.
"""

import ctypes
import platform

__all__ = ["HAS_C_REPR", "NO_C_REPR", "IS_CPYTHON"]

#: Whether ``from_param`` returns CPython's ``CArgObject`` (with the C repr).
HAS_C_REPR = not isinstance(ctypes.c_int.from_param(0), ctypes._SimpleCData)
#: The reason tests that need the C repr give when they skip.
NO_C_REPR = "no C PyCArg_repr here (PyPy): the ctypes fix has nothing to fix"
IS_CPYTHON = platform.python_implementation() == "CPython"
