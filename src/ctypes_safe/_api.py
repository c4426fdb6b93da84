"""The patch API: ``patch()``, ``unpatch()``, ``is_patched()``, ``is_vulnerable()``, ``status()``.

Why: code that reprs a ctypes parameter (logging ``c_double.from_param(x)``,
debuggers, error reports) crashes an unpatched interpreter (CVE-2021-3177,
bpo-42938); ``patch()`` fixes that process-wide, explicitly and reversibly:
in slot mode when every check of ``_slot`` passes, else in converter mode.
The modes and logging are imported on first use: importing stays cheap.
"""

import sys

from _cpython_security._fork import settle_before_fork, settle_in_child
from _cpython_security._import_hook import importing
from _cpython_security._ledger import called_inside, mark_busy
from ._report import PatchReport, failure
from ._state import state
from ._version import __version__
from _cpython_security._report import common_status

__all__ = ["patch", "unpatch", "is_patched", "is_vulnerable", "status", "ACTIVATION_VARIABLE"]

#: The start-up switch read by the package's ``.pth`` file (see ``_startup``).
ACTIVATION_VARIABLE = "CTYPES_SAFE_PATCH"


#: The modules ``patch()``, ``unpatch()`` and ``status()`` import on first use.
_USED = ("_cpython_security._logging", "_cpython_security._selfcheck", "ctypes_safe._log",
         "ctypes_safe._detect", "ctypes_safe._slot", "ctypes_safe._interpreter",
         "ctypes_safe._converter", "ctypes_safe._layout", "ctypes_safe._repr",
         "ctypes_safe._carg")
_USED_STDLIB = ("logging", "gc", "platform")
#: Left to first use even on 3.6: converter mode (start-up never loads it) and
#: the self-check's helpers (argparse, json: outside the package).
_LAZY = ("ctypes_safe._converter", "_cpython_security._selfcheck")
# A fork never leaves one of them half-imported in a child.
settle_before_fork(_USED, _USED_STDLIB, [name for name in _USED if name not in _LAZY])


#: This package's import name (a vendored copy has another).
_PACKAGE = __name__.rpartition(".")[0]


def _part(name, inside=False):
    """This package's module *name*, imported on first use; for a health check called
    inside ``patch()``/``unpatch()`` (*inside*, ``_ledger.called_inside``), None unless it
    is whole already: a signal handler there starts no import (issue 53)."""
    full = _PACKAGE + "." + name
    if inside:
        module = sys.modules.get(full)
        return None if module is None or importing(full) else module
    __import__(full)
    return sys.modules[full]


def _not_applicable(inside=False):
    """Why this implementation has no C repr to fix (PyPy), or None on CPython (and
    inside, before that is known)."""
    layout = _part("_layout", inside)
    return None if layout is None else layout.NOT_APPLICABLE


def _detect(inside=False):
    """Whether the stock repr is the unfixed one, found once (no lock: every finder
    agrees); not known yet *inside*: counted as unfixed, found later."""
    if state.vulnerable is None:
        if inside:
            return True
        state.vulnerable = _part("_detect").interpreter_is_vulnerable()
    return state.vulnerable


def is_vulnerable():
    """True if ctypes' own parameter repr is the unfixed ``sprintf("%f")`` one (bpo-42938).

    Why: that repr overflows a 256-byte stack buffer for large doubles. The
    answer is about the interpreter, so it stays the same while patched, by
    this package or by anyone else. Takes no lock.
    """
    return _detect(called_inside())


def patch(force=False, _at_startup=False):
    """Give ctypes parameter objects fixed CPython's repr; return a PatchReport.

    Why: every ``repr()``/``str()`` of a parameter object is then safe
    (CVE-2021-3177, bpo-42938). Slot mode when its checks pass, else converter
    mode (``report.mode`` says which). Changes nothing where the stock repr is
    already fixed unless ``force`` is true. Idempotent and thread-safe: while
    the fix is in force (read from the type itself), every call returns the
    report of the call that patched; otherwise what an interrupted call or
    someone else left of ours is taken out and the fix applied again.
    (*_at_startup*: from the start-up switch: the log lines wait for the
    app's logging set-up.)
    """
    settle_in_child()  # a forked child: logging's locks a gone thread held, made anew
    from . import _log
    if not _at_startup:
        _log.logger()  # imports logging first: if that fails, nothing has changed
    reason = _not_applicable()
    if reason is not None:  # nothing to fix, nothing written
        report = PatchReport(forced=force)
        report.skipped.append(("ctypes", "not applicable: " + reason))
        _log.log_report("patch", report, _at_startup)
        return report
    with state.lock:
        if state.report is not None and _in_effect():
            return state.report
        report = _patch(force)
    _log.log_report("patch", report, _at_startup)
    return report


def _patch(force):
    """``patch()`` once the fix is known not to be in force; the caller holds the lock."""
    from . import _slot
    _undo(PatchReport())
    state.report = None
    report = PatchReport(forced=force)
    if not (_detect() or force):
        report.skipped.append((_slot.NAMES[0], "already fixed: the stock repr prints "
                               "<cparam 'd' (1.5)> (bpo-42938)"))
        return report
    try:
        _apply(report)
        state.report = report
    except BaseException:  # all or nothing, whatever stopped it (a signal, MemoryError)
        _undo(PatchReport())
        raise
    return report


def _apply(report):
    """Slot mode if ``_slot`` verifies and installs, else converter mode; fills *report*.

    Neither mode can be stopped half-way unseen by ``_undo()``: slot mode's
    state is read from the type itself, and converter mode records each
    binding in the step that makes it (``state.ledger``).
    """
    from . import _slot
    try:
        _slot.install(_slot.locate())  # all or nothing by itself
    except Exception as problem:  # any failure of a check means: do not use slot mode
        reason = str(problem) if isinstance(problem, _slot.SlotCheckFailed) else "%s: %s" % (
            type(problem).__name__, problem)
        report.skipped.append((_slot.NAMES[0], failure("slot check failed: " + reason)))
        from . import _converter  # only now: slot mode, the usual one, never needs it
        _converter.install(report)
        report.mode = "converter"
    else:
        report.changed.extend(_slot.NAMES)
        report.mode = "slot"


def _undo(report):
    """Put back what is this package's of either mode, listed in *report*; caller holds the lock.

    Slot mode: whatever the type holds of ours, read from the type (an
    interrupted call leaves no record of it), or, if the last ``patch()`` was
    in slot mode, the skipped places someone else has rebound since.
    """
    slots = _slots()
    if slots is not None and (_slot_in_effect(slots) or (
            state.report is not None and state.report.mode == "slot")):
        from . import _slot
        changed, skipped = _slot.restore(slots)
        report.changed.extend(changed)
        report.skipped.extend(skipped)
        if changed:
            report.mode = "slot"
    if state.ledger.entries():  # converter mode got as far as binding something
        from . import _converter
        _converter.restore(report)


def unpatch():
    """Undo what ``patch()`` changed; return a PatchReport listing what was restored.

    Why: the fix must be reversible. A place someone else has rewritten since
    ``patch()`` is left alone and listed in ``skipped``.
    """
    settle_in_child()
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


state.lock.entries = (patch.__code__, unpatch.__code__)


def _slots(inside=False):
    """Slot mode's verified places, or None where they cannot be verified (found once)
    or, *inside*, where ``_slot`` is not whole yet."""
    slot = _part("_slot", inside)
    if slot is None:
        return None
    try:
        return slot.places()
    except slot.SlotCheckFailed:
        return None


def _slot_in_effect(slots):
    return sys.modules[_PACKAGE + "._slot"].is_installed(slots)  # loaded: slots says so


def _in_effect(inside=False):
    """Whether this package's fix is in force now, read from the type and the classes."""
    slots = _slots(inside)
    if slots is not None and _slot_in_effect(slots):
        return True
    return state.ledger.bound()


def is_patched():
    """True while this package's fix is in force: ``patch()`` changed something still in place.

    Read from the type itself (slot mode) and the classes (converter mode),
    without a lock: a signal handler, a ``gc`` callback or a ``__del__`` may
    call it, also while its own thread is inside ``patch()`` or ``unpatch()``.
    """
    return _in_effect(called_inside())


def status():
    """This process's self-check as a dict: what ``python -m ctypes_safe --json`` prints.

    Why: a health check or an operator can read whether this process still
    runs the unfixed repr (``"exposed"``), how the fix is applied, and who
    provides the repr (``"repr_by"``: ``"stock"``, ``"this package"``, or
    ``"someone else"``: another copy or tool, whose fix never makes the
    interpreter count as not vulnerable). Takes no lock, as
    :func:`is_patched`; inside ``patch()`` or ``unpatch()`` (a signal handler) it
    starts no import, and what it cannot read without one counts as exposed.
    """
    settle_in_child()
    inside = called_inside()
    vulnerable = _detect(inside)
    report = state.report
    slots = _slots(inside)
    slot = sys.modules[_PACKAGE + "._slot"] if slots is not None else None
    holder = slot.holder(slots) if slots is not None else None
    patched = _in_effect(inside)
    in_effect = holder in (slot.OURS, slot.SOMEONE_ELSE) if slot else False
    in_effect = in_effect or patched
    info = common_status(__name__.split(".")[0], __version__, "CVE-2021-3177", patched,
                         report if patched else None, ACTIVATION_VARIABLE,
                         vulnerable and not in_effect)
    info.update({
        "vulnerable": vulnerable,
        "mode": _mode(slots, report) if patched else None,
        "repr_by": holder,
        "probe": None,
        "not_applicable": _not_applicable(inside),
    })
    return info


mark_busy(patch, unpatch, is_patched, is_vulnerable, status)


def _mode(slots, report):
    if slots is not None and _slot_in_effect(slots):
        return "slot"
    return "converter" if state.ledger.bound() else report.mode
