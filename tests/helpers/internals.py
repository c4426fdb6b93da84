"""The one place the tests reach the packages' private modules.

Why one place: a test that imports ``urllib_parse_backport._shim._frameworks``
directly breaks, and hides what it depends on, when a module moves. Tests
import the internals they inspect from here; everything else goes through
the public API and real seams (``read_environment(environ)``,
``protect(app, separator=...)``, fresh interpreters with a variable set).
"""

from urllib_parse_backport import _policy, _rewrite  # noqa: F401
from urllib_parse_backport._audit import _known as audit_known  # noqa: F401
from urllib_parse_backport._audit import _main as audit_main  # noqa: F401
from urllib_parse_backport._audit import _regex as audit_regex  # noqa: F401
from urllib_parse_backport._shim import _checks, _frameworks, _surgery, _targets  # noqa: F401
from _cpython_security import _import_hook as import_hook  # noqa: F401
from _cpython_security import _registry as shared_registry  # noqa: F401
#: The fix packages, and each one's first row: the tests' one list of them.
from _cpython_security._registry import BY_PACKAGE, PACKAGES  # noqa: F401
from _cpython_security import _startup as shared_startup  # noqa: F401
from urllib_parse_backport._audit import _worker as audit_worker  # noqa: F401
#: The audit's reader of one file (its size cap, its read sized by fstat).
from urllib_parse_backport._audit import _source as audit_source  # noqa: F401
from urllib_parse_backport import _charsets as charsets  # noqa: F401
from _cpython_security._report import failure as skip_failure  # noqa: F401
from _cpython_security._report import FAILURE, kind_of  # noqa: F401
from urllib_parse_backport._log import log_report as urllib_log_report  # noqa: F401
#: The generated start-up table (tools/make_pth.py), read before any watched import.
from _cpython_security import _table as start_up_table  # noqa: F401
#: The state lock of every package (issue 53's trial of its own steps).
from _cpython_security._ledger import Lock as StateLock  # noqa: F401
#: The IDNA fix's probes of each half of gh-98433 (the check's words follow them).
from idna_backport import _idna as idna_fix  # noqa: F401
#: The fix packages on the shared engine (rows naming a fix module): the trials run on each.
ENGINE_PACKAGES = [package for package in PACKAGES if BY_PACKAGE[package].fix is not None]


def ships(package):
    """Whether this interpreter ships a stdlib module *package*'s fixes are for, with
    something in it to bind (2.7 has no ``ipaddress``, 2.7-3.7 no ``zipfile.Path``:
    such a package has nothing to patch there)."""
    import importlib
    for fix in shared_registry.fixes_of(package):
        try:
            module = importlib.import_module(fix.module if fix.module
                                             else min(fix.probes, key=len))
        except ImportError:
            continue
        if fix.fix is None or __import__(fix.fix, None, None,
                                         ("replacements",)).replacements(module):
            return True
    return False


def shared_check():
    """``cpython-security-check``'s module, run in this process (``collect``, ``render``)."""
    from _cpython_security import _check
    return _check
