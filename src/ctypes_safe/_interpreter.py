"""Two facts slot mode needs before it writes: is this the main interpreter, and is there a GIL.

Why: slot mode writes into ``CArgObject``'s type object. Up to 3.12 every
interpreter of the process shares that type, so a ``__repr__`` installed from
a subinterpreter (mod_wsgi runs applications in subinterpreters by default)
would stay there after that interpreter ended. On a free-threaded build
(PEP 703) no GIL orders the write against other threads reading the slot.
"""

import ctypes
import sys

__all__ = ["is_free_threaded", "is_main_interpreter"]


def is_free_threaded():
    """True on a free-threaded build: ``Py_GIL_DISABLED`` (3.13+, PEP 703), ``t`` in abiflags."""
    abiflags = getattr(sys, "abiflags", None)
    if abiflags is not None:  # POSIX: the flags say it, with no import (a fork may
        return "t" in abiflags  # catch another thread importing sysconfig)
    if sys.version_info < (3, 13):  # no such build before
        return False
    import sysconfig
    return bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


def _function(name, restype, *argtypes):
    """A new ctypes function object for the C API *name* (nobody else's argtypes), or None."""
    try:
        function = ctypes.pythonapi[name]
    except AttributeError:  # not exported by this version
        return None
    function.restype, function.argtypes = restype, list(argtypes)
    return function


def _interpreters():
    """Every interpreter of the process, newest first (``PyInterpreterState_Next`` order).

    Read under the GIL: before 3.12 interpreters are created and ended only
    while holding it.
    """
    head = _function("PyInterpreterState_Head", ctypes.c_void_p)
    following = _function("PyInterpreterState_Next", ctypes.c_void_p, ctypes.c_void_p)
    found = []
    current = head()
    while current and len(found) < 10000:
        found.append(current)
        current = following(current)
    return found


def _current(interpreters):
    """The address of this thread's interpreter, or None if it cannot be proven.

    *interpreters*: None, or :func:`_interpreters`' list when already read."""
    thread = _function("PyThreadState_Get", ctypes.c_void_p)()
    get = None
    if sys.version_info >= (3, 9):
        get = _function("PyThreadState_GetInterpreter", ctypes.c_void_p, ctypes.c_void_p)
    if get is not None:
        return get(thread)
    # 2.7: struct _ts {next, interp, ...}; 3.6-3.8: {prev, next, interp, ...}
    # (Include/pystate.h). The word must be one of the process's interpreters.
    word = (ctypes.c_void_p * 3).from_address(thread)[1 if sys.version_info[0] == 2 else 2]
    return word if word in (interpreters or _interpreters()) else None


def is_main_interpreter():
    """True in the process's first interpreter; False in a subinterpreter or if unproven.

    Each C function is looked up only on the versions that have it, and the
    list of interpreters read once: each lookup makes a ctypes function
    object, a cost paid in every process the start-up switch patches
    (docs/performance.rst, "Start-up switches")."""
    interpreters = main = None
    if sys.version_info >= (3, 7):
        main = _function("PyInterpreterState_Main", ctypes.c_void_p)
    if main is not None:
        main = main()
    else:  # 2.7, 3.6: the main interpreter is the oldest, the last of the list
        interpreters = _interpreters()
        main = (interpreters or [None])[-1]
    current = _current(interpreters)
    return current is not None and current == main
