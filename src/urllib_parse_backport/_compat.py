"""The place where Python 2 and Python 3 differ for this package.

Everything version-specific that the rest of the package needs is chosen here,
once, at import time. The other version gates, each naming the change it
follows: ``_parse`` (picks the 2.7 or the 3.x parser), ``_policy`` (bytes-like
queries, gh-74668) and ``_import_hook`` (PEP 451 finders).
"""

import sys

PY2 = sys.version_info[0] == 2

if PY2:  # pragma: no cover - exercised by the py27 environment
    text_type = unicode  # noqa: F821 (Python 2 only)
    string_types = (str, unicode)  # noqa: F821
    #: The stdlib module whose parse_qs/parse_qsl the shim replaces.
    STDLIB_MODULE = "urlparse"

    def is_installed(top):
        """Whether the top-level module *top* can be imported, without importing it.

        ``pkgutil`` rather than ``imp.find_module``: it also looks in zip
        archives (zipped eggs)."""
        import pkgutil
        try:
            return pkgutil.find_loader(top) is not None
        except ImportError:
            return False

else:
    text_type = str
    string_types = (str, bytes)
    STDLIB_MODULE = "urllib.parse"

    def is_installed(top):
        """Whether the top-level module *top* can be imported, without importing it."""
        import importlib.util
        return importlib.util.find_spec(top) is not None


def import_configparser():
    """The stdlib's INI-file parser module: ``ConfigParser`` on 2.7, ``configparser`` on 3.

    Imported on first use: only a host with Red Hat's configuration file needs it.
    """
    if PY2:  # pragma: no cover - exercised by the py27 environment
        import ConfigParser as module
    else:
        import configparser as module
    return module
