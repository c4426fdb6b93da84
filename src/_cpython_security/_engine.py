"""The patch engine: ``patch()``, ``unpatch()``, ``is_patched()``, ``is_vulnerable()`` and
``status()`` of a fix package, from its registry rows.

Why one engine: each of these must stay right whatever stops it (a signal
handler's exception at any bytecode, a fork while another thread patches, a
stdlib module imported anew), and a fix package that wrote its own got the
holes the last one had closed. A fix package is its public face (made here by
:func:`public_face`), its fix modules and its rows in ``_rows``; a fix
module says two things:

- ``needs_fix(module)``: whether the stdlib *module*, as the interpreter
  ships it, lacks the fix, read from its behaviour (never from a version);
- ``replacements(module)``: ``{"name" or "Class.attr": new}``, what to bind
  relative to the module, each new function built around the original.

A third, ``give_back()``, where a fix module has one, puts what its functions keep
(the text the fixed ``HTMLParser.feed`` holds back) where the stock code finds it.

What holds:

- Every binding goes through the package's ``_ledger.Ledger``, changed and
  recorded in one step; ``is_patched()`` reads the bindings. The report is the
  "a patch() finished" mark (set last by ``patch()``, cleared first by
  ``unpatch()``), so a second call of either finishes an interrupted one.
- "In effect" is read from the module as it is now: its own name (or the class's
  attribute) holds the fix's function, directly or under a later fix that wraps it.
  A module imported (or class defined) anew holds none: the next ``patch()``
  puts back what the old one held and patches the new one.
- Whether the interpreter needs a fix is probed on the stock module before
  anything is bound, and kept per module namespace: it stays the
  interpreter's answer while patched.
- A module-level function's aliases elsewhere are rebound by identity (``_rebind``).
- A row's ``copies`` (the stdlib module's code vendored into a distribution:
  python-future's ``future.backports``) are more targets of the same fix
  module: probed, bound and restored as the stdlib module is, never imported
  here; one not imported yet is watched and patched once it is.
- A module (or copy) that lacks a fix its fix module cannot apply to (an
  error, or nothing to bind: none of the stock code it knows) is left
  unpatched, with the reason, and ``status()`` says it is exposed.
"""

import types

from ._fork import settle_before_fork, settle_in_child
from ._import_hook import PostImportHook, imported, importing
from ._ledger import Ledger, Lock, called_inside, mark_busy
from ._logging import get_logger, log_report
from ._rebind import module_namespace, rebind
from ._targets import NOT_LOADED, find_modules, resolve as _resolve, targets, value as _value
from ._rows import fixes_of
from ._report import PatchReport, common_status, failure
from ._version import __version__

__all__ = ["public_face", "named_as", "LEFT_ALONE"]

#: The skip reason of a binding someone else changed since ``patch()``: a warning.
LEFT_ALONE = failure("rebound by someone else since: left alone")

#: What ``patch()``, ``unpatch()`` and ``status()`` import on first use: settled
#: before a fork (3.7+), imported now on 3.6, so a child never finds one half-made.
_USED = ("_cpython_security._logging",)
settle_before_fork(_USED, ("logging",), _USED[:1])


_FUNCTION = types.FunctionType


def named_as(new, original, module=False):
    """*new*, under *original*'s ``__name__``, ``__doc__`` and (3.x) ``__qualname__``
    (*module*: its ``__module__`` too): what every fix module's replacement shares, so
    that it reads as the method it stands in for (``help()``, tracebacks, ``repr``).
    Returns *new*."""
    new.__name__ = original.__name__
    new.__doc__ = original.__doc__
    if hasattr(original, "__qualname__"):
        new.__qualname__ = original.__qualname__
    if module:
        new.__module__ = original.__module__
    return new


class _Engine(object):
    """One package's patch state and functions (see the module docstring)."""

    def __init__(self, package):
        self.package = package
        self.fixes = fixes_of(package)
        self.lock = Lock()
        self.ledger = Ledger()
        #: ``[(fix, module name)]``: each fix's stdlib module, then its copies.
        self.targets = targets(self.fixes)
        #: ``{(cve, module name): (module namespace, whether the stock module needs the fix)}``.
        self.probed = {}
        #: ``{(cve, module name): [(path, id(new))]}`` of the ``patch()`` under way or finished.
        self.bound = {}
        #: ``{(cve, copy name): reason}``: the copies the fix module could not be applied to.
        self.failed = {}
        #: The copies not imported when ``patch()`` last ran: patched once imported.
        self.absent = ()
        #: The stdlib modules a ``patch()`` found half-imported, and the hook that calls
        #: ``patch()`` again once they are whole (None: none waits).
        self.waiting = ()
        self.hook = None
        # The fix modules, and the stdlib modules already loaded, whole in a forked child.
        settle_before_fork(sorted(set(fix.fix for fix in self.fixes)),
                           sorted(set(name for _, name in self.targets)))

    # -- reading the module as it is now ---------------------------------------------

    def modules(self, loaded_only=False):
        """``{name: module or None}`` of every target (``_targets.find_modules``)."""
        return find_modules(self.fixes, loaded_only)

    def vulnerable(self, fix, module, name=None, probe=True):
        """Whether *module* (stock; *name*, default the fix's stdlib module) needs *fix*:
        probed once per namespace, before binding; *probe* False: no probe (inside)."""
        if module is None:
            return False
        if module is NOT_LOADED:
            return True
        namespace = module_namespace(module)
        key = (fix.cve, name or fix.module)
        known = self.probed.get(key)
        if known is not None and known[0] is namespace:
            return known[1]
        if not probe:
            return True
        try:
            needed = bool(__import__(fix.fix, None, None, ("needs_fix",)).needs_fix(module))
        except Exception:  # a probe that cannot tell: treated as unfixed
            needed = True
        self.probed[key] = (namespace, needed)
        return needed

    def in_effect(self, fix, module, name=None):
        """Whether each name *fix* bound in *module* (*name*, default the fix's stdlib
        module) holds its function now, directly or wrapped by a later fix of the package."""
        wanted = self.bound.get((fix.cve, name or fix.module))  # [] : nothing to bind here
        if wanted is None or module is None or module is NOT_LOADED:
            return False
        entries = self.ledger.entries()
        for path, new in wanted:
            try:
                holder, key, kind, _ = _resolve(module, path)
            except (KeyError, AttributeError, TypeError):
                return False
            value = _value(holder, key, kind)
            while id(value) != new:
                older = [entry.old for entry in entries if entry.holder is holder
                         and entry.key == key and entry.new is value]
                if not older:
                    return False
                value = older[-1]
        return True

    # -- the public functions ---------------------------------------------------------

    def patch(self, force=False, _at_startup=False, _just_imported=(), _leave_out=()):
        settle_in_child()
        if not _at_startup:
            get_logger(self.package)  # imports logging first: if that fails, nothing changed
        modules = self.modules()
        with self.lock:
            ledger = self.ledger
            done = ledger.report
            if done is not None and all(self.in_effect(fix, modules[name], name)
                                        for fix, name in self.targets
                                        if (fix.cve, name) in self.bound) \
                    and all(importing(name) for name in self.waiting) \
                    and not any(imported(name) for name in self.absent):
                return done
            ledger.report = None
            self.give_back()
            self.bound, self.failed = {}, {}  # before unbinding: none reads as in effect then
            ledger.unbind()  # what an interrupted call, or a module imported anew, left bound
            report = PatchReport(forced=force)
            due, waiting, absent = [], [], []
            for fix, name in self.targets:  # every probe reads the stock module, before binding
                module, copy = modules[name], name != fix.module
                label = "%s in %s" % (fix.cve, name) if copy else fix.cve
                if module is None:
                    if copy:  # watched: patched when the application imports it
                        absent += [name] if name not in absent else []
                    else:
                        report.skipped.append((name, "not in this interpreter: nothing "
                                               "to fix"))
                elif importing(name):  # half-made (wsgiref.handlers imports
                    # wsgiref.headers first): a probe would read it wrong; patched when whole
                    report.skipped.append((label, "waits for %s to finish importing" % name))
                    waiting += [name] if name not in waiting else []
                elif fix.cve in _leave_out:
                    report.skipped.append((label, "left out by CPYTHON_SECURITY_SKIP"))
                elif not (self.vulnerable(fix, module, name) or force):
                    report.skipped.append((label, "already fixed: the stock %s has %s"
                                           % (name, fix.issue)))
                else:
                    due.append((fix, name))
            for fix, name in due:
                if name == fix.module:
                    self.bind(fix, modules[name], report, _just_imported)
                else:
                    self.bind_copy(fix, name, modules[name], report, _just_imported)
            self.waiting, self.absent = tuple(waiting), tuple(absent)
            ledger.report = report  # the last step: "a patch() finished"
        log_report(self.package, "patch", report, _at_startup)
        if waiting or absent:
            self.wait_for(waiting + absent, (force, _at_startup, (), _leave_out))
        return report

    def wait_for(self, names, arguments):
        """Call ``patch(*arguments)`` again once each module of *names* has finished
        importing (the skip list and force of the call that found them half-made)."""
        def again(name):
            if self.ledger.report is not None:  # unpatch() since: nothing to finish
                self.patch(*arguments)

        hook, self.hook = self.hook, PostImportHook(names, again)
        if hook is not None:
            hook.uninstall()
        self.hook.install()

    def bind(self, fix, module, report, just_imported, name=None):
        """Bind *fix*'s replacements in *module* (*name*, default the fix's stdlib module);
        a function's aliases in other loaded modules too (found by identity), unless the
        module was imported just now."""
        found = __import__(fix.fix, None, None, ("replacements",)).replacements(module)
        if not found and self.vulnerable(fix, module, name):  # lacks it, no code it knows
            why = failure("%s cannot be applied: this %s is none of the code it knows"
                          % (fix.cve, name or fix.module))
            self.failed[(fix.cve, name or fix.module)] = why
            report.skipped.append((fix.cve if name is None else name, why))
            return
        bound = []  # recorded as the fix's once all is bound: "in effect" needs all of it
        for path, new in sorted(found.items()):
            holder, key, kind, label = _resolve(module, path)
            bound.append((path, id(new)))
            old = _value(holder, key, kind)  # ABSENT: unpatch() deletes the name again
            if kind or not isinstance(old, _FUNCTION) or module.__name__ in just_imported:
                self.ledger.bind(holder, key, new, label, attribute=kind, old=old)
                report.changed.append(label)
                continue
            found = rebind({id(old): (old, new)}, None, self.package, self.ledger.bind)
            report.changed.extend(entry[4] for entry in found)
        self.bound[(fix.cve, name or fix.module)] = bound

    def give_back(self):
        """Each bound fix's ``give_back()``, where its module has one, before the stock
        methods are bound again (a call cut short is made again by the next one)."""
        bound = set(cve for cve, _ in self.bound)
        for fix in [fix for fix in self.fixes if fix.cve in bound]:
            getattr(__import__(fix.fix, None, None, ("give_back",)), "give_back", bool)()

    def bind_copy(self, fix, name, module, report, just_imported):
        """:meth:`bind` in the copy *name*. A fix module written for the stdlib module
        may not fit a copy (a name it replaces missing, another shape): then the copy
        stays unpatched (what was bound of it stays in the ledger, for ``unpatch()``),
        the report says why, and ``status()`` counts it exposed."""
        try:
            self.bind(fix, module, report, just_imported, name)
        except Exception as exc:
            why = failure("%s cannot be applied to this copy: %s: %s"
                          % (fix.cve, type(exc).__name__, exc))
            self.failed[(fix.cve, name)] = why
            report.skipped.append((name, why))

    def unpatch(self):
        settle_in_child()
        get_logger(self.package)
        with self.lock:
            ledger = self.ledger
            done, ledger.report = ledger.report, None  # the first step: no patch() is whole
            report = PatchReport(forced=done is not None and done.forced)
            back = ledger.replacements()
            self.give_back()
            self.bound, self.waiting, self.failed, self.absent = {}, (), {}, ()  # as in patch()
            restored, left = ledger.unbind()
            if self.hook is not None:
                self.hook.uninstall()
            report.changed.extend(restored)
            report.skipped.extend((label, LEFT_ALONE) for label in left)
            if back:  # aliases of a fix made while patched (a module imported meanwhile)
                report.changed.extend(entry[4] for entry in rebind(back, None, self.package))
        log_report(self.package, "unpatch", report)
        return report

    def is_patched(self):
        return self.ledger.bound()

    def is_vulnerable(self):
        inside = called_inside()  # a handler inside patch(): no import, no probe
        modules = self.modules(inside)
        with self.lock:
            return any(importing(fix.module) or self.vulnerable(fix, modules[fix.module],
                                                                probe=not inside)
                       for fix in self.fixes if modules[fix.module] is not None)

    def status(self):
        settle_in_child()
        inside = called_inside()  # a handler inside patch(): no import, no probe
        modules = self.modules(inside)
        with self.lock:
            fixes = {}
            for fix in self.fixes:
                module = modules[fix.module]
                half = module is not None and importing(fix.module)  # no probe can tell
                lacks = True if half else self.vulnerable(fix, module, probe=not inside)
                active, why = self.in_effect(fix, module), self.failed.get((fix.cve, fix.module))
                copies = dict((name, self.copy_status(fix, name, modules[name], inside))
                              for name in fix.copies)
                fixes[fix.cve] = {  # the shape every multi-fix status() has
                    "lacks": lacks,
                    "exposed": lacks and not active or any(
                        each["exposed"] for each in copies.values()),
                    "issue": fix.issue,
                    "state": "patched" if active else "not in this interpreter"
                    if module is None else "not imported" if module is NOT_LOADED
                    else "not patched" if why is None else "not patched: %s" % (why,),
                    "target": ", ".join(fix.replaces) or fix.module,
                    "copies": copies,
                }
            patched = self.ledger.bound()
            exposed = any(each["exposed"] for each in fixes.values())
            info = common_status(self.package, __version__, self.fixes[0].cve, patched,
                                 self.ledger.report if patched else None,
                                 self.fixes[0].variable, exposed)
            info.update({"fixes": fixes, "target": ", ".join(
                name for fix in self.fixes for name in fix.replaces),
                "vulnerable": any(each["lacks"] for each in fixes.values())})
            return info

    def copy_status(self, fix, name, module, inside=False):
        """*fix* in the copy *name*: ``lacks`` (its stock code, None when not imported),
        ``exposed`` (lacks it and not patched: a probe that cannot tell, or a fix module
        that cannot apply, counts as lacking) and ``state``."""
        if module is None:
            return {"lacks": None, "exposed": False, "state": "not imported"}
        lacks = True if importing(name) else self.vulnerable(fix, module, name, not inside)
        active = self.in_effect(fix, module, name)
        why = self.failed.get((fix.cve, name))
        return {"lacks": lacks, "exposed": lacks and not active,
                "state": "patched" if active else "not patched" if why is None
                else "not patched: %s" % (why,)}


mark_busy(_Engine.patch, _Engine.unpatch, _Engine.status, _Engine.is_vulnerable)


def public_face(package):
    """``(patch, unpatch, is_patched, is_vulnerable, status)`` of *package*: the functions
    its ``__init__`` binds, each documented as the public name it becomes."""
    engine = _Engine(package)

    def patch(force=False, _at_startup=False, _just_imported=(), _leave_out=()):
        """Apply each of the package's fixes this interpreter lacks; return a PatchReport.

        *force*: apply them where the stock code already has them. Idempotent
        and thread-safe: while the fixes are in force (read from the stdlib
        module's bindings), every call returns the report of the call that
        patched; otherwise what an interrupted call, or a module imported
        anew, left is put back and the fixes applied again, so a
        ``KeyboardInterrupt`` anywhere inside leaves the next call to finish
        the job. (The underscored keywords are the start-up switch's.)"""
        return engine.patch(force, _at_startup, _just_imported, _leave_out)

    def unpatch():
        """Undo what ``patch()`` changed; return a PatchReport listing what was restored.

        A binding someone else has changed since ``patch()`` is left alone and
        listed in ``skipped``. Finishes what an interrupted ``patch()`` or
        ``unpatch()`` left bound."""
        return engine.unpatch()

    def is_patched():
        """True while ``patch()`` has changed something that ``unpatch()`` has not undone.

        Read from the bindings themselves, without the lock: a signal handler may ask."""
        return engine.is_patched()

    def is_vulnerable():
        """True if the stdlib as this interpreter ships it lacks any of the package's fixes.

        The answer is about the interpreter, so it stays the same while patched."""
        return engine.is_vulnerable()

    def status():
        """This process's self-check as a dict: what ``python -m PACKAGE --json`` prints.

        ``"cve"``: the package's first fix, as in every package; ``"exposed"``: some
        fix of the package is needed and not in effect;
        ``"fixes"``: each CVE's ``lacks`` (the interpreter), ``exposed``, ``issue``,
        ``state`` and ``target``."""
        return engine.status()

    functions = (patch, unpatch, is_patched, is_vulnerable, status)
    for function in functions:
        function.__module__ = package
        if hasattr(function, "__qualname__"):
            function.__qualname__ = function.__name__
        function.__doc__ = function.__doc__.replace("PACKAGE", package)
    return functions
