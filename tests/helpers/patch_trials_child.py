"""The trials of issue 46 that need a fresh interpreter: the urlsplit fixes, and every
fix package on the shared engine (its rows in the registry say what it binds).

Run as ``python tests/helpers/patch_trials_child.py SCENARIO ARGS...`` by
``child_scripts.child_json(TRIALS_CHILD, ...)``; each prints one JSON line.
Nothing here depends on timing: a thread is held inside a function by a
tracer until the step under test is done, and an exception is raised by a
tracer at the n-th line (or bytecode) of the packages' own code, for every n.
"""

from __future__ import print_function

import os
import signal
import sys
import threading
import types

from child_scripts import run_scenario

PY2 = sys.version_info[0] == 2
URLLIB = "urlparse" if PY2 else "urllib.parse"
#: Lacks CVE-2025-0938's fix (gh-105704) on every interpreter tested, 3.13.0 included.
BAD_URL = "http://[::1]evil/p%d"


def _package(name):
    __import__(name)
    return sys.modules[name]


def _stdlib(name):
    __import__(name)
    return sys.modules[name]


def _split_refuses(urlsplit, url):
    try:
        urlsplit(url)
    except ValueError:
        return True
    return False


def scenario_stale_cache(cycles):
    """A thread held inside the original ``urlsplit`` while ``patch()`` runs, then let go:
    how often the patched ``urlsplit`` (by the module's name, and through an alias the
    scan cannot see) returns the unfixed result it stored."""
    package = _package("urllib_parse_backport")
    module = _stdlib(URLLIB)
    original = module.urlsplit
    code = getattr(original, "__wrapped__", original).__code__
    held = [original]  # an alias in a container: reached only through the original
    stale = {"by_name": 0, "by_alias": 0}
    for cycle in range(int(cycles)):
        url = BAD_URL % cycle
        entered, release = threading.Event(), threading.Event()

        def tracer(frame, event, arg):
            if event == "call" and frame.f_code is code:
                entered.set()
                release.wait(30)
            return None

        def inside(url=url, tracer=tracer):
            sys.settrace(tracer)
            try:
                original(url)
            except ValueError:
                pass
            finally:
                sys.settrace(None)

        thread = threading.Thread(target=inside)
        thread.start()
        assert entered.wait(30)
        package.patch()
        release.set()
        thread.join()
        stale["by_name"] += not _split_refuses(module.urlsplit, url)
        stale["by_alias"] += not _split_refuses(held[0], url)
        package.unpatch()
    return stale


#: Where *opcodes* counts each bytecode: the engine and the functions that drive it
#: (every line of the packages' other code still counts once).
ENGINE = ("_ledger.py", "_api.py", "_engine.py")


class _Injector(object):
    """Raises KeyboardInterrupt at the n-th line run in the packages' own files (*opcodes*:
    at each bytecode of ``ENGINE``'s, 3.7+), as a signal handler would. With *record*, a
    list, it raises nothing and appends each event's place, ``(file, line or offset)``."""

    def __init__(self, at, opcodes, record=None):
        self.at = at
        self.seen = 0
        self.opcodes = opcodes
        self.record = record
        registry = _package("_cpython_security._registry")
        self.roots = tuple(os.path.dirname(_package(name).__file__) for name in (
            registry.PACKAGES + ("_cpython_security",)))

    def __call__(self, frame, event, arg):
        filename = frame.f_code.co_filename
        if not filename.startswith(self.roots):
            return None
        if self.opcodes and filename.endswith(ENGINE):
            frame.f_trace_opcodes = True
            frame.f_trace = self.opcode  # 3.12+: only then are its bytecodes traced
            return self.opcode
        return self.line

    def line(self, frame, event, arg):
        if event == "line":
            self.count(frame, frame.f_lineno)
        return self.line

    def opcode(self, frame, event, arg):
        if event == "opcode":
            self.count(frame, -frame.f_lasti)  # apart from the lines of the same file
        return self.opcode

    def count(self, frame, where):
        self.seen += 1
        if self.record is not None:
            self.record.append((frame.f_code.co_filename, where))
        elif self.seen == self.at:
            raise KeyboardInterrupt("injected at event %d" % self.at)


def _interrupt_points(places, stride, first, most):
    """The events to interrupt, counted from 1, of a call whose events are *places*: the
    first at each place, and every *stride*-th from *first* (at most *stride*), *stride*
    widened so that these are at most *most*. A loop's later rounds rerun places already interrupted
    once (rebinding's scan of every loaded module is most of a call's events), so the
    sample keeps every place whatever the call's length, at a cost that stays bounded."""
    firsts = {}
    for index, place in enumerate(places, 1):
        firsts.setdefault(place, index)
    stride = max(stride, -(-len(places) // max(most, 1)))
    return sorted(set(firsts.values()) | set(range(first, len(places) + 1, stride)))


_MODULE_DICT = types.ModuleType.__dict__["__dict__"]  # read without running a module's code


def _places(originals):
    """``[(namespace, key, original)]``: every loaded module's name bound to one of *originals*."""
    wanted = dict((id(original), original) for original in originals)
    found = []
    for module in list(sys.modules.values()):
        if not issubclass(type(module), types.ModuleType):
            try:  # Twisted's deprecation proxy holds the module it stands for
                module = object.__getattribute__(module, "_module")
            except AttributeError:
                continue
            if not issubclass(type(module), types.ModuleType):
                continue
        namespace = _MODULE_DICT.__get__(module, types.ModuleType)
        for key, value in list(namespace.items()):
            if id(value) in wanted and wanted[id(value)] is value:
                found.append((namespace, key, value))
    return found


class _Urllib(object):
    """What the urllib fix binds, read from the objects themselves: every name bound to an
    original before the first patch(), and the originals' code."""

    def __init__(self):
        self.package = _package("urllib_parse_backport")
        self.module = _stdlib(URLLIB)
        self.names = dict((name, getattr(self.module, name))
                          for name in ("urlsplit", "parse_qs", "parse_qsl"))
        # python-future's copy (patch() imports it), 2.7's and 3.6's cgi.parse_qs/parse_qsl.
        for other in ("future.backports.urllib.parse", "cgi"):
            module = sys.modules.get(other)
            self.names.update(("%s.%s" % (other, name), getattr(module, name))
                              for name in ("parse_qs", "parse_qsl") if hasattr(module, name))
        self.codes = dict((name, getattr(func, "__wrapped__", func).__code__)
                          for name, func in self.names.items())
        self.places = _places(self.names.values())

    def changed(self):
        """Whether any place the fix replaces holds something else now."""
        return any(namespace.get(key) is not original
                   for namespace, key, original in self.places) or any(
            getattr(func, "__wrapped__", func).__code__ is not self.codes[name]
            for name, func in self.names.items())

    def whole(self):
        """Whether every place is fixed: the module's names and the originals themselves."""
        url = BAD_URL % 0
        return (_split_refuses(self.module.urlsplit, url)
                and _split_refuses(self.names["urlsplit"], url)
                and len(self.module.parse_qsl("a=1;b=2")) == 1
                and len(self.names["parse_qsl"]("a=1;b=2")) == 1)

    def applied(self, info):
        return [cve for cve, entry in sorted(info["fixes"].items()) if entry["state"] == "applied"]


_ABSENT = object()


class _Engine(object):
    """What a fix package on the shared engine binds, read from its registry rows: each
    place a fix module's ``replacements()`` names, with the original it holds, and every
    loaded module's alias of an original function."""

    def __init__(self, name):
        self.package = _package(name)
        registry = _package("_cpython_security._registry")
        self.places = []
        #: The fixes with something to bind here: one with nothing (2.7-3.7's
        #: zipfile.Path fix) is in effect once the engine has looked, and lies about nothing.
        self.binding = set()
        functions = []
        for fix in registry.fixes_of(name):
            try:
                module = _stdlib(fix.module)
            except ImportError:  # a module this interpreter lacks: nothing to bind
                continue
            for path in _package(fix.fix).replacements(module):
                self.binding.add(fix.cve)
                owner, _, key = path.rpartition(".")
                holder = vars(module) if not owner else vars(module)[owner].__dict__
                original = holder.get(key, _ABSENT)  # a method only inherited: absent
                self.places.append((holder, key, original))
                if not owner and isinstance(original, types.FunctionType):
                    functions.append(original)
        self.places += _places(functions)

    def changed(self):
        return any(holder.get(key, _ABSENT) is not original
                   for holder, key, original in self.places)

    def whole(self):
        return all(holder.get(key, _ABSENT) is not original
                   for holder, key, original in self.places)

    def applied(self, info):
        return [cve for cve, entry in sorted(info["fixes"].items())
                if entry["state"] == "patched" and cve in self.binding]


def _trial(which):
    """The package *which* names ("urllib", or an engine package) and its reader."""
    if which == "urllib":
        return _package("urllib_parse_backport"), {}, _Urllib
    return _package(which), {"force": True}, lambda: _Engine(which)


def scenario_interrupted(which, call, opcodes, stride="1", first="1", most="0"):
    """KeyboardInterrupt at each line (or bytecode) of one ``patch()`` or ``unpatch()``
    in turn (with *most*, a positive count: at :func:`_interrupt_points`' sample): after
    each, whether the queries lied, and whether a plain second call finished the job
    (and the call after it worked)."""
    stride, most = int(stride), int(most)
    first = 1 + (int(first) - 1) % stride
    package, options, reader = _trial(which)
    package.patch(**options)  # every module the calls import, imported (status(): the
    package.status()  # installed frameworks, with their aliases of the stdlib's parsers)
    package.unpatch()
    fix = reader()
    found = {"interrupted": 0, "lied": [], "status_lied": [], "unfinished": [], "inert": []}
    places = []
    if call == "unpatch":
        package.patch(**options)
    sys.settrace(_Injector(0, opcodes == "opcodes", record=places))
    try:
        getattr(package, call)(**(options if call == "patch" else {}))
    finally:
        sys.settrace(None)
    if call == "patch":
        package.unpatch()
    if most > 0:
        points = _interrupt_points(places, stride, first, most)
    else:
        points = list(range(first, len(places) + 1, stride))
    found["events"], found["places"] = len(places), len(set(places))
    for at in points + [len(places) + 1]:
        signal.alarm(60)  # a call that blocks for ever ends the scenario
        if call == "unpatch":
            package.patch(**options)
        injector = _Injector(at, opcodes == "opcodes")
        sys.settrace(injector)
        try:
            getattr(package, call)(**(options if call == "patch" else {}))
        except KeyboardInterrupt:
            interrupted = True
        else:
            interrupted = False
        finally:
            sys.settrace(None)
        if not interrupted:  # past the call's end (a scan's length varies a little)
            break
        found["interrupted"] += 1
        truth = fix.changed()
        if package.is_patched() != truth:
            found["lied"].append(at)
        info = package.status()
        if info["patched"] != truth or (fix.applied(info) and not truth):
            found["status_lied"].append(at)
        getattr(package, call)(**(options if call == "patch" else {}))
        if call == "patch":
            finished = fix.whole() and package.is_patched()
            package.unpatch()
            if not finished:
                found["unfinished"].append(at)
            if fix.changed() or package.is_patched():
                found["inert"].append(at)  # and unpatch() did not undo it
        else:
            if fix.changed() or package.is_patched():
                found["unfinished"].append(at)
            package.patch(**options)
            if not (fix.whole() and package.is_patched()):
                found["inert"].append(at)
            package.unpatch()
    signal.alarm(0)
    for key in ("lied", "status_lied", "unfinished", "inert"):
        found[key] = found[key][:5] + ([len(found[key])] if len(found[key]) > 5 else [])
    return found


def scenario_reimport(how):
    """``urllib.parse`` imported anew (``del sys.modules``, or ``reload``) after ``patch()``:
    whether ``patch()`` fixes the new module, with its own result class, and whether
    ``unpatch()`` + ``patch()`` does."""
    package = _package("urllib_parse_backport")
    old = _stdlib(URLLIB)
    package.patch()
    if how == "reload":
        reload = getattr(__import__("importlib"), "reload", None) or __builtins__.reload
        new = reload(old)
    else:
        del sys.modules[URLLIB]
        new = _stdlib(URLLIB)
    found = {"same_object": new is old}
    url = BAD_URL % 1
    package.patch()
    found["patch_fixes_new"] = _split_refuses(new.urlsplit, url)
    found["patch_result_class"] = type(new.urlsplit("http://h/p")) is new.SplitResult
    found["patch_qs_fixed"] = len(new.parse_qsl("a=1;b=2")) == 1
    found["is_patched"] = package.is_patched()
    package.unpatch()
    found["unpatch_restores_new"] = not _split_refuses(new.urlsplit, url)
    package.patch()
    found["repatch_fixes_new"] = _split_refuses(new.urlsplit, url)
    found["repatch_result_class"] = type(new.urlsplit("http://h/q")) is new.SplitResult
    package.unpatch()
    return found


if __name__ == "__main__":
    sys.exit(run_scenario(globals(), sys.argv[1:]))
