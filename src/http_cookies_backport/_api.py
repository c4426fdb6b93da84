"""The patch API: ``patch()``, ``unpatch()``, ``is_patched()``, ``is_vulnerable()``, ``status()``.

Why: ``SimpleCookie.load`` and Django's ``parse_cookie`` unquote every
cookie value of a request through the stdlib's ``_unquote``, quadratic in
backslashes before gh-123067 (CVE-2024-7592). ``patch()`` puts the fixed
:func:`~http_cookies_backport.unquote` in its place, process-wide,
explicitly and reversibly: the stdlib module's binding, and every alias
(``from http.cookies import _unquote``) in a loaded module, by identity.
The stdlib module and logging are imported on first use: importing stays cheap.
"""

import sys
import types

from _cpython_security._fork import settle_before_fork, settle_in_child
from _cpython_security._rebind import rebind
from _cpython_security._registry import unquote_needs_fix
from _cpython_security._report import PatchReport

from ._compat import STDLIB_MODULE
from ._state import state
from ._unquote import unquote
from ._version import __version__

__all__ = ["patch", "unpatch", "is_patched", "is_vulnerable", "status", "ACTIVATION_VARIABLE",
           "TARGET"]

#: The start-up switch read by the package's ``.pth`` file (see ``_startup``).
ACTIVATION_VARIABLE = "HTTP_COOKIES_BACKPORT_PATCH"

#: The stdlib name the fix replaces.
TARGET = STDLIB_MODULE + "._unquote"

_OWN = __name__.split(".")[0]

#: The modules ``patch()``, ``unpatch()`` and ``status()`` import on first use.
_USED = ("http_cookies_backport._log", "_cpython_security._logging",
         "_cpython_security._selfcheck")
# A fork never leaves one of them half-imported in a child (3.6: imported now,
# but the self-check's, which imports argparse and json).
settle_before_fork(_USED, (STDLIB_MODULE, "logging", "platform"), _USED[:2])


def _import_stdlib():
    """Import the stdlib module, never under the state lock: its first import may
    run the start-up switch's hook, which calls ``patch()``, which takes the lock."""
    __import__(STDLIB_MODULE)
    return sys.modules[STDLIB_MODULE]


def _stock():
    """The stdlib's own ``_unquote``: the one ``patch()`` replaced while patched."""
    module = sys.modules[STDLIB_MODULE]
    for entry in state.ledger.entries():
        if entry.holder is vars(module) and entry.key == "_unquote":
            return entry.old
    return module._unquote


def _detect():
    if state.vulnerable is None:
        try:
            state.vulnerable = bool(unquote_needs_fix(_stock()))
        except Exception:  # not a Python function: unknown, so treated as unfixed
            state.vulnerable = True
    return state.vulnerable


def is_vulnerable():
    """True if the stdlib's own ``_unquote`` is not gh-123067's single pass.

    The answer is about the interpreter, so it stays the same while patched."""
    _import_stdlib()
    with state.lock:
        return _detect()


def _rebind(old, new, only=None, bind=None):
    """Rebind *old* to *new* in every loaded module but this package's (or in *only*).

    Returns ``[(namespace, key, old, new, "module.key")]``."""
    return rebind({id(old): (old, new)}, only, _OWN, bind)


def _replacement():
    """A function of its own with the fix's code, named as the stdlib's.

    Why its own: ``unpatch()`` finds the aliases made while patched by
    identity, and must not touch an application's own binding of the
    public :func:`~http_cookies_backport.unquote`."""
    copy = types.FunctionType(unquote.__code__, unquote.__globals__, "_unquote")
    copy.__doc__ = unquote.__doc__
    if hasattr(copy, "__qualname__"):
        copy.__qualname__ = "_unquote"
    return copy


def patch(force=False, _at_startup=False, _just_imported=()):
    """Put the fixed ``_unquote`` in the stdlib's place; return a PatchReport.

    Changes nothing where the stock function is already the fix unless
    *force*. Idempotent and thread-safe: while the fix is in force (read from
    the stdlib module's binding), every call returns the report of the call
    that patched; otherwise what an interrupted call left is put back and the
    fix applied again, so a ``KeyboardInterrupt`` anywhere inside leaves the
    next call to finish the job. (*_at_startup*: from the start-up switch,
    whose log lines wait for the app's logging set-up; *_just_imported*: the
    stdlib module has just been imported, so no other module can hold its
    function yet and only its own namespace is rebound.)
    """
    settle_in_child()
    from . import _log
    if not _at_startup:
        _log.logger()  # imports logging first: if that fails, nothing has changed
    module = _import_stdlib()
    with state.lock:
        ledger = state.ledger
        if ledger.report is not None and _in_effect(module):
            return ledger.report
        ledger.report = None
        ledger.unbind()  # what an interrupted call, or the last patch of a module
        report = PatchReport(forced=force)  # imported anew, left bound
        if not (_detect() or force):
            report.skipped.append((TARGET, "already fixed: the stock function is "
                                   "gh-123067's single pass"))
        else:
            only = (STDLIB_MODULE,) if STDLIB_MODULE in _just_imported else None
            bindings = _rebind(module._unquote, _replacement(), only, ledger.bind)
            report.changed.extend(label for _, _, _, _, label in bindings)
            ledger.report = report  # the last step: "a patch() finished"
    _log.log_report("patch", report, _at_startup)
    return report


def unpatch():
    """Undo what ``patch()`` changed; return a PatchReport listing what was restored.

    A binding someone else has changed since ``patch()`` is left alone and
    listed in ``skipped``; aliases of the fix made while patched (a module
    imported meanwhile) get the original back too. Finishes what an
    interrupted ``patch()`` or ``unpatch()`` left bound."""
    settle_in_child()
    from . import _log
    _log.logger()
    with state.lock:
        ledger = state.ledger
        done, ledger.report = ledger.report, None  # the first step: no patch() is whole
        report = PatchReport(forced=done is not None and done.forced)
        back = ledger.replacements()
        restored, left = ledger.unbind()
        report.changed.extend(restored)
        report.skipped.extend((label, _log.LEFT_ALONE) for label in left)
        if back:
            report.changed.extend(entry[4] for entry in rebind(back, None, _OWN))
    _log.log_report("unpatch", report)
    return report


def is_patched():
    """True while ``patch()`` has changed something that ``unpatch()`` has not undone.

    Read from the bindings themselves, without the lock: a signal handler may ask."""
    return state.ledger.bound()


def _in_effect(module):
    """Whether the stdlib module's ``_unquote`` is the one this package bound there."""
    namespace = vars(module)
    return any(entry.holder is namespace and entry.key == "_unquote"
               for entry in state.ledger.live())


def status():
    """This process's self-check as a dict: what ``python -m http_cookies_backport --json`` prints.

    ``"exposed"``: the stdlib's cookie unquoting is quadratic in this process."""
    settle_in_child()
    from _cpython_security._selfcheck import common_status
    module = _import_stdlib()
    with state.lock:
        vulnerable = _detect()
        patched = state.ledger.bound()
        info = common_status(_OWN, __version__, "CVE-2024-7592", patched,
                             state.ledger.report if patched else None, ACTIVATION_VARIABLE,
                             vulnerable and not _in_effect(module))
        info.update({"vulnerable": vulnerable, "target": TARGET})
        return info
