"""The shim's public functions: ``patch()``, ``unpatch()``, ``is_patched()``.

Why a module of its own: these are what users call, with the same shapes as
``ctypes_safe``'s; the machinery they drive (``_apply``, ``_targets``,
``_surgery``, ``_frameworks``) is imported on first use, so importing the
package stays cheap and changes nothing.
"""

from .._report import PatchReport

__all__ = ["patch", "unpatch", "is_patched", "ACTIVATION_VARIABLE"]

#: The variable the ``.pth`` start-up switch reads (see ``_startup``).
ACTIVATION_VARIABLE = "URLLIB_PARSE_BACKPORT_PATCH"


def patch(force=False, frameworks=False, leave_out=(), _targets=(), _adapters=(),
          _at_startup=False, _just_imported=()):
    """Give the process's ``urllib.parse`` every fix it lacks: ``parse_qs``/``parse_qsl``
    split on ``'&'`` only (bpo-42967), and ``urlsplit`` (so ``urlparse``) gets
    the four later fixes (see the urlsplit page).

    Replaces the parsers of every target that still splits on ``';'`` or
    lacks ``separator``: ``urlparse`` (2.7) or ``urllib.parse``, ``cgi``'s
    copies where loaded, python-future's ``future.backports.urllib.parse``,
    and every alias of them in loaded modules; already-fixed or vendor-patched
    parsers are left alone unless *force* is true. Replaces the stdlib's
    ``urlsplit`` where a probe shows it lacks one of CVE-2023-24329,
    CVE-2022-0391, CVE-2024-11168, CVE-2025-0938. *leave_out*: CVE
    identifiers of fixes not to apply (ValueError for any other name).
    *frameworks*: also the
    framework adapters (Django 1.11, WebOb, CherryPy, Twisted Web, old Bottle:
    parsers of their own), which are never forced.
    Idempotent and thread-safe: once patched, returns the report of the call
    that patched; a later ``frameworks=True`` adds the adapters to it, any
    other change of options needs ``unpatch()`` first. Logs what it did.
    Returns a :class:`PatchReport`. (*_targets*, *_adapters*: more targets
    and adapters than the package's own, for its tests. *_at_startup*: from
    the start-up switch: python-future's copy is patched when imported, not
    imported now, and the log lines wait for the app's logging set-up.
    *_just_imported*: from the start-up switch too, the modules whose first
    import has just finished: see ``_apply.apply``.)
    """
    leave_out = _known(leave_out)
    from ._apply import apply, apply_adapters
    from .._log import log_report
    from ._state import state
    from ._targets import TARGETS
    with state.lock:
        fresh = state.report is None  # not patched since the last unpatch()
        if fresh:
            state.report = PatchReport(forced=force)
        report = state.report
        before = len(report.changed), len(report.skipped)
        if fresh:
            state.leave_out = leave_out
            verdicts = apply(list(TARGETS) + list(_targets), report, force, lazy=_at_startup,
                             just_imported=_just_imported)
            report.fixes = _states(verdicts, state)
        if frameworks and not state.frameworks:
            state.frameworks = True
            from ._frameworks import ADAPTERS  # io and the adapters: only when asked for
            apply_adapters(list(ADAPTERS) + list(_adapters), report)
        if fresh or (len(report.changed), len(report.skipped)) != before:
            this_call = PatchReport(forced=force)
            this_call.fixes = report.fixes if fresh else {}
            this_call.changed = report.changed[before[0]:]
            this_call.skipped = report.skipped[before[1]:]
            log_report("patch", this_call, _at_startup)
        return report


def _known(leave_out):
    """*leave_out* as a frozenset of this package's CVEs; ValueError naming any other."""
    from _cpython_security._registry import fixes_of
    known = [fix.cve for fix in fixes_of(__name__.split(".")[0])]
    if isinstance(leave_out, (str, type(u""))):
        leave_out = [leave_out]
    names = frozenset(name.strip().upper() for name in leave_out)
    unknown = sorted(names.difference(known))
    if unknown:
        raise ValueError("leave_out names no fix of urllib_parse_backport: %s (the fixes "
                         "are %s)" % (", ".join(unknown), ", ".join(known)))
    return names


def _states(verdicts, state):
    """``{CVE: state}`` (see :class:`PatchReport`) from ``apply()``'s *verdicts*."""
    from _cpython_security._report import FAILURE, kind_of
    from .._compat import STDLIB_MODULE
    from ._split import CVES, NAME
    states = {}
    needs, reason = verdicts.get(STDLIB_MODULE, (False, "not assessed"))
    if "CVE-2021-23336" in state.leave_out and (needs or state.report.forced):
        states["CVE-2021-23336"] = "left out"
    elif needs or state.report.forced:
        states["CVE-2021-23336"] = "applied"
    else:
        states["CVE-2021-23336"] = "unchecked" if kind_of(reason) == FAILURE else "not needed"
    needs, reason = verdicts.get(NAME, (False, "not assessed"))
    plan = state.split_plan or {}
    for cve in CVES:
        decided = plan.get(cve)
        if decided == "left out":
            states[cve] = "left out"
        elif decided is None:
            states[cve] = "unchecked"
        elif decided == "apply" and (needs or state.report.forced):
            states[cve] = "applied"
        else:
            states[cve] = "not needed"
    return states


def unpatch():
    """Undo :func:`patch`: every changed name is bound to its exact original again.

    Also restores aliases of the replacements made while patched (modules
    imported after ``patch()``). Returns a :class:`PatchReport` whose
    ``changed`` lists what was restored (empty when not patched). Logs it.
    """
    from ._apply import restore
    from .._log import log_report
    from ._state import state
    with state.lock:
        report = PatchReport()
        if state.report is None and not state.changed_something():
            return report
        restore(report)
        state.report = None
        state.leave_out = frozenset()
        state.split_plan = state.split_lacks = None
        state.frameworks = False
        log_report("unpatch", report)
        return report


def is_patched():
    """True while :func:`patch` has changed something that :func:`unpatch` has not undone."""
    from ._state import state
    with state.lock:
        return state.changed_something()
