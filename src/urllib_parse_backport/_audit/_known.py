"""The parsers ``patch()`` already fixes at run time, by dotted name, for the audit report.

Why: a finding in one of these needs ``patch()`` (or ``patch(frameworks=True)``),
not a code change, and the report says so. The adapters' parsers come from the
shim's own table, so the two cannot drift; reading it imports no framework.
"""

import os
import re
import sys

from _cpython_security._registry import BY_PACKAGE

STDLIB_SHIM = "the stdlib shim, patch()"
SHIM = "patch()"
ADAPTER = "patch(frameworks=True)"

#: This interpreter's stdlib module: the only ``urlparse``/``urllib.parse`` its
#: ``patch()`` reaches (a vendored top-level ``urlparse.py`` on 3.x is not it).
_STDLIB = "urlparse" if sys.version_info[0] == 2 else "urllib.parse"

#: module.function -> what fixes it in the shim itself.
_SHIM_TARGETS = {
    # The stdlib before bpo-42967.
    _STDLIB + ".parse_qsl": STDLIB_SHIM,
    # The stdlib's urlsplit: the shim applies each later fix it lacks
    # (_shim/_split). python-future's copy of urlsplit is not replaced.
    _STDLIB + ".urlsplit": STDLIB_SHIM,
}
# The registry's copies of the stdlib module (python-future's copy of 3.3's urllib.parse):
# the shim rewrites each one's parser.
_SHIM_TARGETS.update((copy + ".parse_qsl", SHIM) for copy in BY_PACKAGE[
    "urllib_parse_backport"].copies)
_fixed = None


def module_name(path):
    """The dotted name *path* is imported under, from the ``__init__.py`` files above it.

    Climbing stops at a directory whose name is no identifier: no import can
    name it (Debian's PyPy keeps an ``__init__.py`` in ``/usr/lib/pypy3.9``)."""
    directory, filename = os.path.split(os.path.abspath(path))
    name = os.path.splitext(filename)[0]
    parts = [] if name == "__init__" else [name]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        parent, package = os.path.split(directory)
        if not _identifier(package):
            break
        directory = parent
        parts.insert(0, package)
    return ".".join(parts)


def _identifier(name):
    check = getattr(name, "isidentifier", None)  # 3.x; 2.7: ASCII names only
    if check is not None:
        return check()
    return re.match(r"[A-Za-z_][A-Za-z0-9_]*\Z", name) is not None


def fixed_at_run_time():
    """``{module.function: what fixes it}``: the shim's targets and every framework adapter."""
    global _fixed
    if _fixed is None:
        from .._shim._frameworks import ADAPTERS
        fixed = dict(_SHIM_TARGETS)
        for adapter in ADAPTERS:
            for name in (adapter.attribute,) + adapter.covers:
                fixed["%s.%s" % (adapter.module, name)] = ADAPTER
        _fixed = fixed
    return _fixed


def fixed_by(parser, path=None):
    """What fixes *parser* (``module.function``, defined in the file *path*) at run time,
    or None. The stdlib's are fixed only in the file this interpreter imports:
    a copy elsewhere (an older interpreter's, a vendored one) is not."""
    fixer = fixed_at_run_time().get(parser)
    if fixer == STDLIB_SHIM and path is not None and not _is_stdlib_file(path):
        return None
    return fixer


def _is_stdlib_file(path):
    module = sys.modules.get(_STDLIB) or __import__(_STDLIB, None, None, ("urlsplit",))
    source = getattr(module, "__file__", None)
    if not source:
        return False
    if source.endswith((".pyc", ".pyo")):
        source = source[:-1]
    return os.path.realpath(source) == os.path.realpath(path)
