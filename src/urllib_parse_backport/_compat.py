"""The one place where Python 2 and Python 3 differ for this package.

Everything version-specific that the rest of the package needs is chosen here,
once, at import time, so no other module branches on the interpreter version.
"""

import re
import sys

PY2 = sys.version_info[0] == 2

if PY2:  # pragma: no cover - exercised by the py27 environment
    text_type = unicode  # noqa: F821 (Python 2 only)
    string_types = (str, unicode)  # noqa: F821

    def _byte(value):
        return chr(value)

else:
    text_type = str
    string_types = (str, bytes)

    def _byte(value):
        return bytes((value,))


def import_configparser():
    """The stdlib's INI-file parser module: ``ConfigParser`` on 2.7, ``configparser`` on 3.

    Imported on first use: only a host with Red Hat's configuration file needs it.
    """
    if PY2:  # pragma: no cover - exercised by the py27 environment
        import ConfigParser as module
    else:
        import configparser as module
    return module


_HEX_DIGITS = "0123456789ABCDEFabcdef"

#: Two hex digits (as bytes, either case) -> the byte they encode, as in
#: CPython's ``urllib.parse._hextobyte`` and 2.7's ``urlparse._hextochr``.
HEX_TO_BYTE = dict(
    ((a + b).encode("ascii"), _byte(int(a + b, 16)))
    for a in _HEX_DIGITS
    for b in _HEX_DIGITS
)

#: Splits text into alternating non-ASCII and ASCII runs (capturing group).
ASCII_RUNS = re.compile(u"([\x00-\x7f]+)")
