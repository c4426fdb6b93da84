"""The registry of fixes: every row, in order, the only place the shared package
names a package (its rows, one module per package, are in ``_rows``).

Each row says which CVE and upstream issue the fix is for, the stdlib names
it replaces, the behaviour probes that say whether this interpreter needs
it, the module that applies it (imported by name, only when due: importing
a package is the cost a start-up switch must not pay) and its knob.
``cpython-security-check`` (``_check``), the VEX document, the docs'
coverage page and the tests read this table; start-up reads only the rows
of the packages that watch the module just imported (``_rows.fixes_of``).
``tests/test_design.py`` checks that no other module of the shared package
names a package.

Probes read the module they are given and never change it; a probe that
raises counts as "needs it" (the package's own check then decides). No
probe reads a version number.
"""

from . import _rows
from ._probes import SPLIT_PROBES  # noqa: F401 - the shim's urlsplit probes, by row
from ._row import Fix  # noqa: F401 - the rows' class, named by its users here
from ._rows.urllib_parse_backport import FRAMEWORK_MODULES  # noqa: F401 - a test reads it

__all__ = ["Fix", "FIXES", "BY_PACKAGE", "PACKAGES", "fixes_of", "variable_of",
           "keep_off", "SPLIT_PROBES"]

#: Every fix this distribution carries, in the order reports list them.
FIXES = tuple(fix for package in _rows.ORDER for fix in _rows.fixes_of(package))


def keep_off(fix):
    """The ids ``CPYTHON_SECURITY_SKIP`` must name to keep *fix* off: its own, and those
    of the other fixes of its package that replace a name it replaces (2.7's
    ``HTTPResponse.begin`` of gh-150743 bounds CVE-2021-3737's headers too), but for
    those whose check its replacement holds (``holds``): theirs do not hold its own."""
    names = set(fix.replaces)
    return [each.cve for each in fixes_of(fix.package) if each is fix or (
        names.intersection(each.replaces) and each.cve not in fix.holds)]


def variable_of(package):
    """The variable of *package*'s own start-up switch."""
    return BY_PACKAGE[package].variable


def fixes_of(package):
    """The rows of *package*, in registry order (none for a name that is no package)."""
    return _rows.fixes_of(package) if package in _rows.ORDER else []


#: The packages, in the order of their first fix (the rows' own order).
PACKAGES = _rows.ORDER

#: ``{package: its first fix}``: what a package's fixes share (switch, start-up module).
BY_PACKAGE = dict((package, fixes_of(package)[0]) for package in PACKAGES)
