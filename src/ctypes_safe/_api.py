"""The patch API: ``patch()``, ``unpatch()``, ``is_patched()``, ``is_vulnerable()``, ``status()``.

Why: code that reprs a ctypes parameter (logging ``c_double.from_param(x)``,
debuggers, error reports) crashes an unpatched interpreter (CVE-2021-3177,
bpo-42938); ``patch()`` fixes that process-wide, explicitly and reversibly:
in slot mode when every check of ``_slot`` passes, else in converter mode.
The modes and logging are imported on first use: importing stays cheap.
"""

import ctypes

from ._report import PatchReport
from ._state import state
from ._version import __version__

__all__ = ["patch", "unpatch", "is_patched", "is_vulnerable", "status", "ACTIVATION_VARIABLE"]

#: The start-up switch read by the package's ``.pth`` file (see ``_startup``).
ACTIVATION_VARIABLE = "CTYPES_SAFE_PATCH"

_UNFIXED = "1.500000"  # what sprintf("%f") makes of 1.5; the fix prints repr(1.5)


def _detect():
    """Whether the stock repr is the unfixed one; the caller holds ``state.lock``.

    Why: the fixed repr prints ``(1.5)`` for 1.5 and the vulnerable one
    ``(1.500000)``; 1.5 cannot overflow, so asking is safe in-process. Checked
    once, before any ``patch()`` can have replaced the repr.
    """
    if state.vulnerable is None:
        raw = type(ctypes.c_double).__dict__["from_param"]  # the metaclass method, never patched
        state.vulnerable = _UNFIXED in repr(raw(ctypes.c_double, 1.5))
    return state.vulnerable


def is_vulnerable():
    """True if ctypes' own parameter repr is the unfixed ``sprintf("%f")`` one (bpo-42938).

    Why: that repr overflows a 256-byte stack buffer for large doubles. The
    answer is about the interpreter, so it stays the same while patched.
    """
    if state.vulnerable is None:
        with state.lock:
            return _detect()
    return state.vulnerable


def patch(force=False, _at_startup=False):
    """Give ctypes parameter objects fixed CPython's repr; return a PatchReport.

    Why: every ``repr()``/``str()`` of a parameter object is then safe
    (CVE-2021-3177, bpo-42938). Slot mode when its checks pass, else converter
    mode (``report.mode`` says which). Changes nothing where the stock repr is
    already fixed unless ``force`` is true. Idempotent and thread-safe: while
    patched, every call returns the report of the call that patched.
    (*_at_startup*: from the start-up switch: the log lines wait for the
    app's logging set-up.)
    """
    from . import _log, _slot
    if not _at_startup:
        _log.logger()  # imports logging first: if that fails, nothing has changed
    with state.lock:
        if state.report is not None:
            return state.report
        report = PatchReport(forced=force)
        if not (_detect() or force):
            report.skipped.append((_slot.NAMES[0], "already fixed: the stock repr prints "
                                   "<cparam 'd' (1.5)> (bpo-42938)"))
        else:
            try:
                _apply(report)
                state.report = report
            except BaseException:  # all or nothing, whatever stopped it (a signal, MemoryError)
                _undo(PatchReport())
                raise
    _log.log_report("patch", report, _at_startup)
    return report


def _apply(report):
    """Slot mode if ``_slot`` verifies and installs, else converter mode; fills *report*.

    Each mode records what it will change in ``state`` before changing it, so
    that ``_undo()`` finds everything if this is stopped half-way.
    """
    from . import _slot
    try:
        state.slots = _slot.locate()
        _slot.install(state.slots)  # all or nothing by itself
    except Exception as failure:  # any failure of a check means: do not use slot mode
        state.slots = None
        reason = str(failure) if isinstance(failure, _slot.SlotCheckFailed) else "%s: %s" % (
            type(failure).__name__, failure)
        report.skipped.append((_slot.NAMES[0], "slot check failed: " + reason))
        from . import _converter  # only now: slot mode, the usual one, never needs it
        _converter.install(report)
        report.mode = "converter"
    else:
        report.changed.extend(_slot.NAMES)
        report.mode = "slot"


def _undo(report):
    """Put back what ``state`` records of either mode, listed in *report*; caller holds the lock."""
    if state.slots is not None:
        from . import _slot
        changed, skipped = _slot.restore(state.slots)
        report.changed.extend(changed)
        report.skipped.extend(skipped)
        state.slots = None
    if state.saved or state.installed:  # converter mode got as far as saving something
        from . import _converter
        _converter.restore(report)


def unpatch():
    """Undo what ``patch()`` changed; return a PatchReport listing what was restored.

    Why: the fix must be reversible. A place someone else has rewritten since
    ``patch()`` is left alone and listed in ``skipped``.
    """
    from . import _log
    _log.logger()
    with state.lock:
        report = PatchReport()
        if state.report is not None:
            report.forced = state.report.forced
            report.mode = state.report.mode
            _undo(report)
            state.report = None
    _log.log_report("unpatch", report)
    return report


def is_patched():
    """True while ``patch()`` has changed something that ``unpatch()`` has not undone."""
    with state.lock:
        return state.changed_something()


def _in_effect():
    """Whether the patch still protects this process; the caller holds ``state.lock``."""
    from . import _slot
    if state.slots is not None:
        return _slot.is_installed(state.slots)
    return any(cls.__dict__.get("from_param") is replacement
               for cls, replacement in state.installed.items())


def status():
    """This process's self-check as a dict: what ``python -m ctypes_safe --json`` prints.

    Why: a health check or an operator can read whether this process still
    runs the unfixed repr (``"exposed"``), and how the fix is applied.
    """
    from _cpython_security._selfcheck import common_status
    with state.lock:
        vulnerable = _detect()
        report = state.report
        info = common_status(__name__.split(".")[0], __version__, "CVE-2021-3177",
                             state.changed_something(), report, ACTIVATION_VARIABLE,
                             vulnerable and not _in_effect())
        info.update({
            "vulnerable": vulnerable,
            "mode": report.mode if report is not None else None,
            "probe": None,
        })
        return info
