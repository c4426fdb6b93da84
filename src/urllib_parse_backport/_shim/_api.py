"""The shim's public functions: ``patch()``, ``unpatch()``, ``is_patched()``.

Why a module of its own: these are what users call, with the same shapes as
every fix package's; the machinery they drive (``_apply``, ``_targets``,
``_surgery``, ``_frameworks``) is imported on first use, so importing the
package stays cheap and changes nothing.
"""

from _cpython_security._fork import settle_before_fork, settle_in_child

from .._compat import STDLIB_MODULE
from .._report import PatchReport
from ._state import state

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
    parsers of their own), and the frameworks' own fixes of checks that
    ``urlsplit``'s removal of tab, CR and LF breaks (Django's ``URLValidator``,
    CVE-2021-32052), all never forced.
    Idempotent and thread-safe: once patched, returns the report of the call
    that patched; a later ``frameworks=True`` adds the adapters to it, any
    other change of options needs ``unpatch()`` first. A stdlib module
    imported anew (``del sys.modules``, ``reload``) is patched by the next
    call, and a call stopped half-way (a ``KeyboardInterrupt``) is finished
    by the next one. Logs what it did.
    Returns a :class:`PatchReport`. (*_targets*, *_adapters*: more targets
    and adapters than the package's own, for its tests. *_at_startup*: from
    the start-up switch: python-future's copy is patched when imported, not
    imported now, and the log lines wait for the app's logging set-up.
    *_just_imported*: from the start-up switch too, the modules whose first
    import has just finished: see ``_apply.apply``.)
    """
    settle_in_child()
    leave_out = _known(leave_out)
    from ._apply import apply, apply_adapters, in_effect, restore
    from .._log import log_report
    from ._targets import TARGETS
    with state.lock:
        report = state.report
        fresh = report is None  # no patch() has finished since the last unpatch() began
        before = (0, 0) if fresh else (len(report.changed), len(report.skipped))
        targets = list(TARGETS) + list(_targets)
        if fresh:
            restore(PatchReport())  # what an interrupted patch() or unpatch() left bound
            report = PatchReport(forced=force)
            state.leave_out = leave_out
            state.frameworks = False
            verdicts = apply(targets, report, force, lazy=_at_startup,
                             just_imported=_just_imported)
            report.fixes = _states(verdicts, state, force)
        elif not in_effect():  # a module imported anew, or a name rebound: patched too
            apply(targets, report, report.forced)
        if frameworks and not state.frameworks:
            from ._frameworks import ADAPTERS  # io and the adapters: only when asked for
            from ._checks import CHECKS
            apply_adapters(list(ADAPTERS) + list(CHECKS) + list(_adapters), report)
            state.frameworks = True
        state.report = report  # the last step: "a patch() finished"
        if fresh or (len(report.changed), len(report.skipped)) != before:
            this_call = PatchReport(forced=force)
            this_call.fixes = report.fixes if fresh else {}
            this_call.changed = report.changed[before[0]:]
            this_call.skipped = report.skipped[before[1]:]
            log_report("patch", this_call, _at_startup)
        return report


def _known(leave_out):
    """*leave_out* as a frozenset of this package's CVEs; ValueError naming any other."""
    from _cpython_security._rows import fixes_of
    known = [fix.cve for fix in fixes_of(__name__.split(".")[0])]
    if isinstance(leave_out, (str, type(u""))):
        leave_out = [leave_out]
    names = frozenset(name.strip().upper() for name in leave_out)
    unknown = sorted(names.difference(known))
    if unknown:
        raise ValueError("leave_out names no fix of urllib_parse_backport: %s (the fixes "
                         "are %s)" % (", ".join(unknown), ", ".join(known)))
    return names


def _states(verdicts, state, forced):
    """``{CVE: state}`` (see :class:`PatchReport`) from ``apply()``'s *verdicts*."""
    from _cpython_security._report import FAILURE, kind_of
    from .._compat import STDLIB_MODULE
    from ._split import CVES, NAME
    states = {}
    needs, reason = verdicts.get(STDLIB_MODULE, (False, "not assessed"))
    if "CVE-2021-23336" in state.leave_out and (needs or forced):
        states["CVE-2021-23336"] = "left out"
    elif needs or forced:
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
        elif decided == "apply" and (needs or forced):
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
    settle_in_child()
    from ._apply import restore
    from .._log import log_report
    with state.lock:
        done, state.report = state.report, None  # the first step: no patch() is whole
        report = PatchReport()
        if done is None and not state.ledger.entries() and state.hook is None:
            return report
        restore(report)
        state.leave_out = frozenset()
        state.split_plan = state.split_lacks = None
        state.frameworks = False
        log_report("unpatch", report)
        return report


def is_patched():
    """True while :func:`patch` has changed something that :func:`unpatch` has not undone.

    Read from the bindings themselves, without the lock: a signal handler may ask."""
    return state.changed_something()


#: The modules ``patch()``, ``unpatch()`` and ``status()`` import on first use.
_USED = ("urllib_parse_backport._shim._apply", "urllib_parse_backport._shim._targets",
         "urllib_parse_backport._shim._split", "urllib_parse_backport._shim._surgery",
         "urllib_parse_backport._shim._state", "urllib_parse_backport._log",
         "urllib_parse_backport._selfcheck._status", "_cpython_security._logging",
         "_cpython_security._rows", "_cpython_security._rows.urllib_parse_backport",
         "_cpython_security._rebind",
         "_cpython_security._selfcheck")
#: The stdlib's, and the package's imported only for some calls: settled where
#: some import of them has begun.
_USED_ELSEWHERE = (STDLIB_MODULE, "logging", "platform", "importlib.util", "io",
                   "urllib_parse_backport._rewrite", "urllib_parse_backport._shim._frameworks",
                   "urllib_parse_backport._shim._checks")
#: Left to first use even on 3.6: the self-check's (argparse, json, the adapters).
_LAZY = ("urllib_parse_backport._selfcheck._status", "_cpython_security._selfcheck")
# A fork never leaves one of them half-imported in a child (3.6: imported now).
settle_before_fork(_USED, _USED_ELSEWHERE, [name for name in _USED if name not in _LAZY])
