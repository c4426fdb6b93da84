"""Write (or, with --check, verify) the distribution's one start-up ``.pth`` file.

Every switch starts from one line at the root of site-packages: a plain
expression that, only when one of the start-up variables is set (the
umbrella's, a package's own, or a variable whose presence alone runs a
package's switch), imports ``_cpython_security._startup`` and calls
``from_pth_env()``, which runs each switch asked for once per process (even
where ``site`` reads site-packages twice: a virtualenv's 2.7 ``site.py``, 3.13
venvs), checks the values now and patches when the modules the fixes are for
are imported.

Why one file, not one per package: ``site`` opens, reads and compiles every
``.pth`` file in every process, variable set or not (docs/performance.rst
has what eleven files cost, and one). Why a plain expression: an ``eval(compile(...))`` with a
``try`` in it costs the first ``compile()`` of the process, 0.7 ms on 2.7 and
1.5 ms on 3.13. ``from_pth_env`` never raises; if ``_cpython_security``
itself cannot be imported, ``site`` prints its own error for the line and the
process goes on. The variables come from ``_cpython_security._registry``; any
other ``.pth`` file in ``src/`` is stale and removed.
Usage: ``python tools/make_pth.py [--check]``.
"""

from __future__ import print_function

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
#: The one start-up file.
PTH_FILE = "cpython_security_patch.pth"  # _selfcheck.PTH_FILE says the same


def _registry():
    """``_cpython_security._registry`` from the source tree (it imports only os and sys)."""
    sys.path.insert(0, SRC)
    try:
        from _cpython_security import _registry, _startup  # noqa: F401
    finally:
        sys.path.remove(SRC)
    return _registry


def pth_line(registry=None):
    """The one line of the start-up file: the umbrella's variable and every
    package's, from the registry (a variable named twice is listed once), then
    the variables whose presence alone runs a switch."""
    registry = registry or _registry()
    variables, present = ["CPYTHON_SECURITY_PATCH"], []
    for package in registry.PACKAGES:
        fix = registry.BY_PACKAGE[package]
        variables += [fix.variable] if fix.variable not in variables else []
        present += [name for name in fix.also_variables if name not in present]
    condition = "any(map(os.environ.get, (%s)))" % ", ".join('"%s"' % name for name in variables)
    if present:
        condition = "(%s%s)" % (condition, "".join(' or "%s" in os.environ' % name
                                                   for name in present))
    return ('import os; %s and __import__("_cpython_security._deferred", None, None, '
            '("from_pth_env",)).from_pth_env()\n' % condition)


#: The generated start-up table, in the shared package.
TABLE_FILE = os.path.join("_cpython_security", "_table.py")


def _other_major(registry, _found={}):
    """``{fix id: its modules}`` as the rows list them on the other major version
    (2.7's ``Cookie`` where this is 3.x): each package's row module run with every
    use of ``PY2`` (``_rows``' flag) negated, so that one table serves the
    universal wheel."""
    if not _found:
        import re
        import types
        rows = sys.modules["_cpython_security._rows"]
        for package in rows.ORDER:
            loaded = sys.modules["_cpython_security._rows." + package]
            with open(loaded.__file__.replace(".pyc", ".py")) as handle:
                lines = handle.read().splitlines(True)
            # Negated where read, not where imported (``from . import ... PY2``).
            source = "".join(line if line.startswith("from ") else
                             re.sub(r"\bPY2\b", "(not PY2)", line) for line in lines)
            module = types.ModuleType("_cpython_security._rows._other_major")
            module.__package__ = "_cpython_security._rows"
            module.__file__ = loaded.__file__
            exec(compile(source, loaded.__file__, "exec"), module.__dict__)
            for fix in module.ROWS:
                _found.setdefault(fix.cve, set()).update(fix.probes)
    return _found


def _switch_variables(fix):
    """A package's start-up variables, as the table holds them: ``(own, others)``."""
    return (fix.variable, tuple(fix.also_variables))


def _more(values):
    """What a variable takes beyond the plain values, as written in the table."""
    return " + %r" % (values,) if values else ""


def table_source(registry=None):
    """``_cpython_security/_table.py``: what start-up reads before a watched module's
    first import (``_deferred``), from the registry's rows."""
    registry = registry or _registry()
    startup = sys.modules["_cpython_security._startup"]  # loaded from SRC by _registry()
    switch = sys.modules["_cpython_security._switch"]
    watched, understood, also = set(), {}, []
    plain = tuple(switch.ON + switch.OFF)
    understood[startup.UMBRELLA.variable] = plain
    for package in registry.PACKAGES:
        watched.add(package)
        for fix in registry.fixes_of(package):
            watched.update(fix.probes)
            watched.update(_other_major(registry).get(fix.cve, ()))
            for names in fix.option_modules.values():
                watched.update(names)
            also += [name for name in fix.also_variables if name not in also]
            understood[fix.variable] = plain + tuple(sorted(value for value, _ in fix.options))
    names = set(registry.PACKAGES) | set(fix.cve.upper() for fix in registry.FIXES)
    packages_of = {}
    for package in registry.PACKAGES:
        modules = set([package])
        for fix in registry.fixes_of(package):
            modules.update(fix.probes)
            modules.update(_other_major(registry).get(fix.cve, ()))
            for option_names in fix.option_modules.values():
                modules.update(option_names)
        for name in modules:
            packages_of.setdefault(name, []).append(package)
    lines = [
        '"""The start-up table: what ``_deferred`` reads before a watched module is imported.',
        "",
        "Written by ``tools/make_pth.py`` from the registry's rows (``--check`` in the lint",
        "environment keeps it equal to them); do not edit. Every row's modules on every",
        "interpreter are listed: a name this one does not ship is never imported.",
        '"""',
        "",
        "#: Modules whose first import starts the switches: each fix's modules, each",
        "#: package, each option's modules.",
        "WATCHED = frozenset([",
    ] + ["    %r," % name for name in sorted(watched)] + [
        "])",
        "",
        "#: The values every switch takes: on, then off.",
        "_PLAIN = %r" % (plain,),
        "",
        "#: Each start-up variable, with the values start-up knows (lower case, as written).",
        "UNDERSTOOD = {",
    ] + ["    %r: _PLAIN%s," % (name, _more(values[len(plain):]))
         for name, values in sorted(understood.items())] + [
        "}",
        "",
        "#: Variables whose presence alone runs a switch: start-up runs at once.",
        "ALSO_VARIABLES = %r" % (tuple(also),),
        "",
        "#: What CPYTHON_SECURITY_SKIP may name: packages and fix ids (upper case).",
        "SKIP_NAMES = frozenset([",
    ] + ["    %r," % name for name in sorted(names)] + [
        "])",
        "",
        "#: Each watched module: the packages whose switches its first import starts.",
        "MODULE_PACKAGES = {",
    ] + ["    %r: %r," % (name, tuple(packages_of[name])) for name in sorted(packages_of)] + [
        "}",
        "",
        "#: Each package: its own variable, and those whose presence alone runs its switch.",
        "SWITCH_VARIABLES = {",
    ] + ["    %r: %r," % (package, _switch_variables(registry.BY_PACKAGE[package]))
         for package in registry.PACKAGES] + [
        "}",
        "",
        "#: Every fix id, as its row spells it, with its package: in the registry's order.",
        "FIX_PACKAGES = (",
    ] + ["    (%r, %r)," % (fix.cve, fix.package) for fix in registry.FIXES] + [")", ""]
    return "\n".join(lines)


def main(argv):
    stale = []
    path = os.path.join(SRC, PTH_FILE)
    current = None
    if os.path.exists(path):
        with open(path) as handle:
            current = handle.read()
    if current != pth_line():
        if "--check" in argv:
            stale.append(PTH_FILE)
        else:
            with open(path, "w") as handle:
                handle.write(pth_line())
    table = os.path.join(SRC, TABLE_FILE)
    current = None
    if os.path.exists(table):
        with open(table) as handle:
            current = handle.read()
    if current != table_source():
        if "--check" in argv:
            stale.append(TABLE_FILE)
        else:
            with open(table, "w") as handle:
                handle.write(table_source())
    for name in sorted(os.listdir(SRC)):
        if name.endswith(".pth") and name != PTH_FILE:  # one per package, before 1.0.0
            if "--check" in argv:
                stale.append(name)
            else:
                os.remove(os.path.join(SRC, name))
    if stale:
        print("stale start-up files (run python tools/make_pth.py): %s" % ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
