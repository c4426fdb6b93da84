"""Apply targets to the process and take them back: the work behind ``patch()``/``unpatch()``.

Each parser that needs the fix is replaced in two ways: every alias in a loaded
module is rebound (by identity), and the original function object gets code
that forwards to the replacement, for references no scan can see (defaults,
closures, class attributes, containers); a method of a target that
``binds_class`` (the framework checks of ``_checks``) is bound on its class
instead. Each binding is made through the ledger (``_state.state.ledger``),
which records it in the same step, so it can be undone exactly whatever stops
a call. The caller holds the state lock.

Limits: a copy of an original's code made before ``patch()`` and parsers that
are not these functions (vendored copies) are not reached.
"""

import sys
import types

from .._compat import STDLIB_MODULE, is_installed
from _cpython_security._import_hook import PostImportHook, imported
from .._log import log_report
from .._report import PatchReport, failure
from ._state import state
from ._surgery import module_namespace, rebind, routing_code
from ._targets import diagnose, load, replacement_for

__all__ = ["apply", "apply_adapters", "restore", "in_effect", "WAITING"]

#: Report reason of an adapter (or, at start-up, python-future's copy) whose
#: module is installed but not imported yet.
WAITING = "not imported yet: patched when imported"


def _replacement(target, original, backport):
    cached = state.replacement_cache.get(id(original)) if target.cache else None
    if cached is not None and cached[0] is original:
        return cached[1]
    replacement = replacement_for(target, original, backport)
    if replacement is not None and target.cache:
        state.replacement_cache[id(original)] = (original, replacement)
    return replacement


def _in_place(original):
    """``(function whose code to swap, its cache's clear or None)``: an
    ``lru_cache`` (3.11+'s ``urlsplit``) forwards through the function it wraps,
    and its cache, which holds results of the other function, is emptied."""
    if isinstance(original, types.FunctionType):
        return original, None
    wrapped = getattr(original, "__wrapped__", None)
    clear = getattr(original, "cache_clear", None)
    if isinstance(wrapped, types.FunctionType) and clear is not None:
        return wrapped, clear
    return original, None


def _lookup(namespace, attribute):
    """The function *attribute* names in a module's *namespace*: a module-level
    one, or a method (``Class.method``) as the class holds it."""
    owner, dot, name = attribute.rpartition(".")
    if not dot:
        return namespace.get(attribute)
    cls = namespace.get(owner)
    return vars(cls).get(name) if isinstance(cls, type) else None


def apply(targets, report, force, lazy=False, just_imported=()):
    """Patch those of *targets* that need it (all forceable ones if *force*),
    recording what happened in *report*; *lazy*: those loaded only if installed
    and not imported yet are patched when imported, never imported here.

    *just_imported*: modules whose first import has just finished (the
    start-up switch patches from a post-import hook). When every module
    patched is one of them, only their own names are rebound: no other
    module can hold their functions yet, since the import that binds them
    has not returned; a module caught half-way in a circular import is
    still served by the in-place code swap. Otherwise every loaded module is
    scanned.

    A target that needs a fix, all of whose fixes are in ``state.leave_out``,
    is left alone. Returns ``{target name: (needs_fix, reason)}`` as assessed."""
    verdicts = {}
    replace = {}
    on_class = []  # (target, class, name, original, replacement, label): bound on the class
    later = {}
    patched = set()
    primary = set(target.module for target in targets if target.forceable)
    for target in targets:
        if lazy and target.load == "installed" and target.module not in sys.modules:
            later.setdefault(target.module, []).append(target)
            report.skipped.append((target.module, WAITING))
            continue
        module = load(target, report)
        if module is None:
            continue
        if target.module == STDLIB_MODULE and state.stdlib_facts is None:
            state.stdlib_facts = diagnose(module.parse_qsl)
        try:
            needs_fix, reason = target.assess(module, verdicts)
        except Exception as exc:
            needs_fix, reason = False, failure("assessment failed: %s: %s" % (
                type(exc).__name__, exc))
        verdicts[target.name] = (needs_fix, reason)
        if (needs_fix or force) and target.cves <= state.leave_out:
            report.skipped.append((target.name, "left out: %s" % ", ".join(sorted(target.cves))))
            continue
        if not needs_fix and not (force and target.forceable):
            report.skipped.append((target.name, reason))
            continue
        namespace = module_namespace(module)
        for attribute, backport in sorted(target.replacements.items()):
            label = "%s.%s" % (target.module, attribute)
            original = _lookup(namespace, attribute)
            if original is None:
                report.skipped.append((label, "absent"))
                continue
            replacement = _replacement(target, original, backport)
            if replacement is None:
                report.skipped.append((label, failure("unsupported signature")))
                continue
            if target.binds_class and "." in attribute:
                owner, _, name = attribute.rpartition(".")
                on_class.append((target, namespace[owner], name, original, replacement, label))
            else:
                replace[id(original)] = (original, replacement)
            patched.add(target.module)
    # Aliases (the targets' own bindings included) by identity...
    ledger = state.ledger
    only = patched if just_imported and patched.issubset(just_imported) else None
    for namespace, key, _, new, label in rebind(replace, only, ledger.bind):
        if label.rpartition(".")[0] in primary:
            state.primary.append((label.rpartition(".")[0], namespace, key, new))
        report.changed.append(label)
    # ...then the originals themselves, for references no scan can see.
    for original, replacement in replace.values():
        function, clear = _in_place(original)
        label = "%s.%s (in place)" % (function.__module__,
                                      getattr(function, "__qualname__", function.__name__))
        code = routing_code(function, replacement, label)
        if code is None:
            report.skipped.append((label, failure("unsupported signature")))
        else:
            ledger.bind(function, "__code__", code, label, attribute=True)
            report.changed.append(label)
        if clear is not None:
            state.cleanups.append(clear)
            # An lru_cache (3.11+) holds the other function's results: emptied.
            clear()
    for target, owner, name, original, replacement, label in on_class:
        ledger.bind(owner, name, replacement, label, attribute="class", old=original)
        report.changed.append(label)
        # A framework's own fix (_checks): its CVE says what the binding is, in the log.
        report.fixes.update((cve, "applied") for cve in target.cves)
    _wait(later)
    return verdicts


def apply_adapters(adapters, report):
    """Apply the framework *adapters* of imported frameworks now, and of the other
    installed ones right after their import (never importing them here)."""
    now, later = [], {}
    for adapter in adapters:
        top = adapter.module.partition(".")[0]
        if imported(adapter.module):  # a half-imported one waits for the rest of it
            now.append(adapter)
        elif top in sys.modules or is_installed(top):
            later.setdefault(adapter.module, []).append(adapter)
            report.skipped.append((adapter.module, WAITING))
        else:
            report.skipped.append((adapter.module, "not installed"))
    apply(now, report, False)
    _wait(later)


def _wait(later):
    """Apply *later* ``{module name: [target or adapter]}`` right after each import."""
    if not later:
        return
    for name, waiting in later.items():
        state.waiting.setdefault(name, []).extend(waiting)
    if state.hook is not None:
        state.hook.uninstall()
    state.hook = PostImportHook(list(state.waiting), _on_import)
    state.hook.install()


def _on_import(name):
    """The post-import callback: apply the adapters waiting for module *name*."""
    with state.lock:
        adapters = state.waiting.pop(name, None)
        report = state.report
        if not adapters or report is None:
            return
        report.skipped[:] = [entry for entry in report.skipped if entry != (name, WAITING)]
        done = PatchReport()  # what this import added, for the log
        try:
            apply(adapters, done, False)
        except Exception as exc:  # never break the application's import
            done.skipped.append((name, failure("adapter failed: %s: %s"
                                               % (type(exc).__name__, exc))))
        report.changed.extend(done.changed)
        report.skipped.extend(done.skipped)
        log_report("patched on import of %s" % name, done)


def in_effect():
    """Whether every module ``patch()`` replaced names of is still the one imported under
    its name, holding the replacement: not so once it is imported anew (``del
    sys.modules``, ``reload``) or a name is rebound."""
    for name, namespace, key, replacement in state.primary:
        if module_namespace(sys.modules.get(name)) is not namespace:
            return False
        if namespace.get(key) is not replacement:
            return False
    return True


def restore(report):
    """Undo everything the ledger lists; the labels restored go to *report*."""
    if state.hook is not None:
        state.hook.uninstall()
        state.hook = None
    state.waiting = {}
    back = state.ledger.replacements()
    restored, left = state.ledger.unbind()
    report.changed.extend(restored)
    report.skipped.extend((label, failure("rebound by someone else since: left alone"))
                          for label in left)
    # Aliases of the replacements made while patched (modules imported later).
    if back:
        for binding in rebind(back):
            report.changed.append(binding[4])
    for clear in state.cleanups:  # results cached while patched are the fixed ones
        clear()
    del state.cleanups[:]
    del state.primary[:]
