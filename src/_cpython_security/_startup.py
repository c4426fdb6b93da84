"""What the ``.pth`` line runs at start-up: check the switches now, patch on import.

Why: a variable set in a Docker ``ENV`` line reaches every Python process of
the image (pip, cron scripts, CGI), so switching a fix on must cost next to
nothing where it is not needed. At start-up this module reads the variable
(a bad value prints its one stderr line now) and puts a post-import hook on
the modules the fix is for; only when one of them is imported, and a probe
of it says the interpreter needs the fix, is the package imported and its
``patch()`` called (:func:`run`; a package with a start-up module of its
own in the registry: that module's ``run()``). Importing this module loads no package: it
imports the module a row names, by name, only when due. Nor does it read every row: a
package's rows (``_rows``) load when its switch starts, and what start-up needs about
every package (its variable, its fixes' ids) is in the generated ``_table``.
"""

import os
import sys

from ._import_hook import PostImportHook, imported, importing
from ._switch import StartupSwitch
from ._rows import ORDER as PACKAGES, fixes_of
from . import _table  # read when called: tools/make_pth.py imports this to write it

__all__ = ["from_pth_env", "from_pth", "from_pth_all", "from_pth_packages", "asked", "start",
           "run", "StartupSwitch", "SWITCHES", "TRIGGERS", "UMBRELLA", "SKIP_VARIABLE",
           "left_out", "effective"]


def _always(module):
    return True


class _PerPackage(dict):
    """``{package: make(package)}``, each made at its first use: a package's rows load
    only when something asks about it."""

    def __init__(self, make):
        dict.__init__(self)
        self._make = make

    def __missing__(self, package):
        if package not in PACKAGES:
            raise KeyError(package)
        return self.setdefault(package, self._make(package))


def _first(package):
    return fixes_of(package)[0]


#: Each package's switch: its variable and its own values (``1``... and ``0``... are common).
SWITCHES = _PerPackage(lambda package: StartupSwitch(package, _first(package).variable,
                                                     _first(package).options))

#: The umbrella switch, ``CPYTHON_SECURITY_PATCH``: every fix of the registry, as if
#: each package's variable held the value that applies all of its fixes (the
#: registry's ``umbrella``: ``frameworks`` for the query-string fix, whose framework
#: adapters are fixes of CVE-2021-23336 too), except where that variable is set
#: (not empty, not blanks only): then it decides for its package, as it always has.
UMBRELLA = StartupSwitch("cpython_security", "CPYTHON_SECURITY_PATCH", [])

#: The fixes every start-up switch leaves out: CVE identifiers (one fix) or
#: package names (all of a package's fixes), separated by commas.
SKIP_VARIABLE = "CPYTHON_SECURITY_SKIP"

_SAID = set()


def skipped(environ, stream=None):
    """The names ``CPYTHON_SECURITY_SKIP`` gives (packages as written, fix ids as spelt in FIXES).

    A name that is no fix of the registry leaves nothing out, and the known
    names still do: a typo must neither drop the rest of the list nor pass
    unseen. With *stream*, one line there, once per process, names the
    unknown ones and says what the list still leaves out. Blanks only name
    nothing, as empty does, and get that line too: not what anyone writes
    on purpose."""
    value = environ.get(SKIP_VARIABLE, "")
    fixes = _table.FIX_PACKAGES
    cves = dict((cve.upper(), cve) for cve, _ in fixes)  # as each row spells its id
    names = [name.strip() for name in value.split(",") if name.strip()]
    names = [cves.get(name.upper(), name) for name in names]
    unknown = [name for name in names if name not in PACKAGES and name.upper() not in cves]
    known = set(names) - set(unknown)
    if value and not names and stream is not None and value not in _SAID:
        _SAID.add(value)
        stream.write("cpython_security: %s=%r names no fix; it leaves nothing out\n"
                     % (SKIP_VARIABLE, value))
    if unknown and stream is not None and value not in _SAID:
        _SAID.add(value)
        out = [cve for cve, package in fixes if cve in known or package in known]
        stream.write("cpython_security: %s=%r: unknown name%s %s (the names are %s and %s); "
                     "%s\n" % (
                         SKIP_VARIABLE, value, "" if len(unknown) == 1 else "s",
                         ", ".join(unknown), ", ".join(sorted(PACKAGES)),
                         ", ".join(cve for cve, _ in fixes),
                         "it still leaves out " + ", ".join(out) if out
                         else "it leaves nothing out"))
    return known


def left_out(package, environ, stream=None):
    """The CVEs of *package* that ``CPYTHON_SECURITY_SKIP`` in *environ* leaves out:
    those it names, or all of the package's when it names the package."""
    names = skipped(environ, stream)
    return set(fix.cve for fix in fixes_of(package) if package in names or fix.cve in names)


def effective(package, environ):
    """The value *package*'s switch acts on: its own variable when set and not
    empty, else the package's umbrella value when the umbrella is on. Blanks
    only, as empty, leave the package to the umbrella (:func:`start` names
    them): a quoting slip must not switch a fix off that the umbrella applies."""
    own = environ.get(SWITCHES[package].variable)
    if own and own.strip():
        return own
    if UMBRELLA.choice(environ.get(UMBRELLA.variable)) == "patch":
        return _first(package).umbrella
    return own


def _any_of(probes):
    """One probe that says "needed" when any of *probes* does (a raising one counts)."""
    if len(probes) == 1:
        return probes[0]

    def probe(module):
        return any(_needed(each, module, False) for each in probes)
    return probe


def triggers(package, leave_out=()):
    """*package*'s modules: ``{name: probe(module) -> whether a fix not in
    *leave_out* is needed}``. A probe that raises counts as "needs it": the
    package's own check decides."""
    found = {}
    for fix in fixes_of(package):
        if fix.cve not in leave_out:
            for name, probe in fix.probes.items():
                found.setdefault(name, []).append(probe)
    return dict((name, _any_of(probes)) for name, probes in found.items())


#: Each package's modules, every fix counted (see :func:`triggers`).
TRIGGERS = _PerPackage(triggers)

#: Lines a package prints at start-up before its switch is read (see ``StartupSwitch.run``):
#: a function, or None.
NOTES = _PerPackage(lambda package: next(
    (fix.notes for fix in fixes_of(package) if fix.notes is not None), None))

#: The hooks :func:`start` installed, by package, until the package runs.
HOOKS = {}


#: The packages whose ``.pth`` line has run in this process.
_FROM_PTH = set()


def from_pth(package, environ=None):
    """*package*'s switch: :func:`start` (with *environ*) once per process, never raising.

    Once: ``site`` reads a site-packages directory twice in some layouts (a
    virtualenv's 2.7 ``site.py``, 3.13 venvs); this module stays in
    ``sys.modules``, so the set remembers. Never raising: ``site`` would print a
    traceback and skip the rest of the file; one line says the same."""
    if package in _FROM_PTH:
        return
    _FROM_PTH.add(package)
    try:
        start(package, environ)
    except Exception as exc:  # start() catches its own; this guards its argument handling
        sys.stderr.write("%s: start-up activation failed: %s: %s\n"
                         % (package, type(exc).__name__, exc))


def asked(package, environ):
    """Whether *environ* sets *package*'s own start-up variable (not empty), or
    names one of the variables whose presence alone runs its switch."""
    variable, also_variables = _table.SWITCH_VARIABLES[package]
    return bool(environ.get(variable)) or any(name in environ for name in also_variables)


def from_pth_env():
    """What the distribution's one ``.pth`` line calls when a start-up variable is
    set: the umbrella switch when ``CPYTHON_SECURITY_PATCH`` is set, then the
    switch of each package whose own variable is (:func:`asked`). Each runs once
    per process (:func:`from_pth`, :func:`from_pth_all`). Never raises.

    Why one line for every switch: ``site`` opens, reads and compiles each
    ``.pth`` file, in every process, variable set or not, so a file per
    package made every process pay for each (docs/performance.rst)."""
    try:
        environ = os.environ
        if environ.get(UMBRELLA.variable):
            from_pth_all(environ)
        for package in PACKAGES:
            if asked(package, environ):
                from_pth(package)
    except Exception as exc:
        sys.stderr.write("cpython_security: start-up activation failed: %s: %s\n"
                         % (type(exc).__name__, exc))


def from_pth_packages(packages):
    """The switches of *packages* alone, each as :func:`from_pth_env` would run it (the
    umbrella's when ``CPYTHON_SECURITY_PATCH`` is set, else the package's own when
    :func:`asked`): what ``_deferred`` runs at the first import of a module they
    watch, so that the other packages' rows stay unread until one of their modules
    is imported. Each runs once per process (:func:`from_pth`). Never raises."""
    try:
        environ = os.environ
        umbrella = bool(environ.get(UMBRELLA.variable))
        for package in packages:
            if umbrella or asked(package, environ):
                from_pth(package, environ)
    except Exception as exc:
        sys.stderr.write("cpython_security: start-up activation failed: %s: %s\n"
                         % (type(exc).__name__, exc))


def from_pth_all(environ=None, stream=None):
    """The umbrella switch, ``CPYTHON_SECURITY_PATCH``. A bad value,
    and a skip list naming no fix, print one line each; then every package's
    switch starts as :func:`from_pth` does. Once per process, as :func:`from_pth`.
    Never raises."""
    if UMBRELLA.package in _FROM_PTH:
        return
    _FROM_PTH.add(UMBRELLA.package)
    try:
        environ = os.environ if environ is None else environ
        stream = sys.stderr if stream is None else stream
        if UMBRELLA.choice(environ.get(UMBRELLA.variable)) == "invalid":
            UMBRELLA.run(lambda: None, environ, stream)  # prints the line naming the value
            return
        skipped(environ, stream)  # a typo's line, once
        for package in PACKAGES:
            from_pth(package, environ)
    except Exception as exc:
        sys.stderr.write("cpython_security: start-up activation failed: %s: %s\n"
                         % (type(exc).__name__, exc))


def start(package, environ=None, stream=None, notes=None):
    """Run *package*'s switch as ``environ`` (default ``os.environ``) asks: print a
    bad value's line now; for a patch, patch each trigger module when imported.

    *notes*: as for :meth:`StartupSwitch.run` (default: the package's
    :data:`NOTES`). An option with modules of its own in the registry
    (``frameworks``) also waits for them, which need the package on every
    interpreter, and runs when the application imports the package itself.
    Never raises.
    """
    switch = SWITCHES[package]
    environ = os.environ if environ is None else environ
    value = effective(package, environ)
    own = environ.get(switch.variable)
    if own and value != own:  # blanks only, the umbrella on: it decides, and that is said
        (sys.stderr if stream is None else stream).write(switch.ignoring(
            own, "%s=%s decides for it" % (UMBRELLA.variable, environ.get(UMBRELLA.variable))))
    leave_out = left_out(package, environ, sys.stderr if stream is None else stream)
    wanted = []

    def decide(**options):
        wanted.append(options)

    if notes is None:
        notes = NOTES[package]
    switch.run(decide, {switch.variable: value} if value is not None else {}, stream, notes)
    if not wanted or len(leave_out) == len(fixes_of(package)):
        return  # off, or every fix of the package left out
    # What start-up saw, even if the app changes it later.
    snapshot = {switch.variable: value, SKIP_VARIABLE: ",".join(sorted(leave_out))}
    forced = bool(wanted[0].get("force"))
    probes = triggers(package, leave_out)
    extra = [name for option, names in _first(package).option_modules.items()
             if wanted[0].get(option) for name in names]
    if extra:  # such an option needs the package on every interpreter once one is imported
        probes = dict(probes)
        probes.update((name, _always) for name in extra)

    def on_import(name, just_now=True):
        hook = HOOKS.get(package)
        if name != package and hook is not None and (package in hook.loading
                                                     or importing(package)):
            return  # imported by the package itself: patch once the package is complete
        if name == package and extra:  # e.g. the adapters wait for the frameworks then
            _run_package(package, snapshot, stream)
            return
        names = [name] if name != package else [n for n in probes if n in sys.modules]
        if any(_needed(probes[n], sys.modules[n], forced) for n in names):
            _run_package(package, snapshot, stream,
                         (name,) if just_now and name != package else ())

    # The package itself is watched too: when the application imports it, the
    # modules it imports are patched once it is complete, not half-way.
    # A module half-imported now (start-up put off until a module it imports, such as
    # 3.12+'s urllib.parse importing ipaddress, was done: ``_deferred``) is waited for.
    waiting = [name for name in list(probes) + [package] if not imported(name)]
    if waiting:
        HOOKS[package] = PostImportHook(waiting, on_import)
        HOOKS[package].install()
    for name in probes:
        if imported(name):
            on_import(name, just_now=False)


def _needed(probe, module, forced):
    if forced:
        return True
    try:
        return bool(probe(module))
    except Exception:  # an unknown parser or ctypes: let the package's own check say
        return True


def _run_package(package, environ, stream, just_imported=()):
    """Import *package*'s ``_startup`` and run it once; a failure prints one line.

    *just_imported*: the module whose first import has just finished, when
    that is what triggered the run: no other module can have bound its
    functions yet, which spares the package a scan of every loaded module."""
    if package in _RAN:
        return
    _RAN.add(package)
    hook = HOOKS.pop(package, None)
    if hook is not None:  # the package's patch() watches later imports itself
        hook.uninstall()
    stream = sys.stderr if stream is None else stream
    startup = _first(package).startup
    try:
        __import__(startup or package)
    except Exception as exc:  # a partial install: say so, and how to repair it
        from ._selfcheck import cannot_import  # only now: start-up loads no more
        stream.write(cannot_import(package, startup or package, exc) + "\n")
        return
    try:
        if startup is None:
            run(package, environ, stream, just_imported)
        else:
            __import__(startup, None, None, ("run",)).run(environ, stream, just_imported)
    except Exception as exc:  # never break the application's import, never silently
        stream.write("%s: start-up activation failed: %s: %s\n"
                     % (package, type(exc).__name__, exc))


_RAN = set()


def run(package, environ=None, stream=None, just_imported=()):
    """*package*'s switch as *environ* (default ``os.environ``) asks: its ``patch()``,
    with ``_at_startup`` (the report is logged once the application has set up
    logging); the report, or None. What a registry row without a ``startup``
    module of its own runs.

    *just_imported*: as for :func:`_run_package`, for a ``patch()`` that scans
    loaded modules (one that takes ``_just_imported``)."""
    patch = __import__(package, None, None, ("patch",)).patch
    code = getattr(patch, "__code__", None)
    extra = {}
    names = code.co_varnames[:code.co_argcount] if code is not None else ()
    if "_just_imported" in names:
        extra["_just_imported"] = just_imported
    if "_leave_out" in names:  # the engine's: the fixes of the package the skip list names
        given = (os.environ if environ is None else environ).get(SKIP_VARIABLE, "")
        extra["_leave_out"] = tuple(name for name in given.split(",") if name)

    def start_up_patch(**options):
        return patch(_at_startup=True, **dict(extra, **options))

    return SWITCHES[package].run(start_up_patch, environ, stream)
