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


def patch(force=False, frameworks=False, _targets=(), _adapters=(), _at_startup=False,
          _just_imported=()):
    """Make the process's ``parse_qs``/``parse_qsl`` split on ``'&'`` only (bpo-42967).

    Replaces the parsers of every target that still splits on ``';'`` or
    lacks ``separator``: ``urlparse`` (2.7) or ``urllib.parse``, ``cgi``'s
    copies where loaded, python-future's ``future.backports.urllib.parse``,
    and every alias of them in loaded modules; already-fixed or vendor-patched
    parsers are left alone unless *force* is true. *frameworks*: also the
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
            apply(list(TARGETS) + list(_targets), report, force, lazy=_at_startup,
                  just_imported=_just_imported)
        if frameworks and not state.frameworks:
            state.frameworks = True
            from ._frameworks import ADAPTERS  # io and the adapters: only when asked for
            apply_adapters(list(ADAPTERS) + list(_adapters), report)
        if fresh or (len(report.changed), len(report.skipped)) != before:
            this_call = PatchReport(forced=force)
            this_call.changed = report.changed[before[0]:]
            this_call.skipped = report.skipped[before[1]:]
            log_report("patch", this_call, _at_startup)
        return report


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
        state.frameworks = False
        log_report("unpatch", report)
        return report


def is_patched():
    """True while :func:`patch` has changed something that :func:`unpatch` has not undone."""
    from ._state import state
    with state.lock:
        return state.changed_something()
