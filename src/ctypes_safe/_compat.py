"""Python 2/3 differences of ctypes_safe, in one place.

Why: the package runs unchanged on 2.7 and 3.6-3.13 and imports no other
fix package (each keeps its differences in one place).
"""

import sys

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    from thread import allocate_lock, get_ident
else:
    from _thread import allocate_lock, get_ident

#: The exact types of Python integers: int, and long on Python 2.
INTEGER_TYPES = tuple({int, type(2 ** 64)})

__all__ = ["allocate_lock", "get_ident", "INTEGER_TYPES", "ascii_bytes", "is_cpython"]


def ascii_bytes(text):
    """*text* (an ASCII ``str``) as bytes. On 2.7 a ``str`` already is: calling
    ``encode`` there looks the codec up, which imports ``encodings.ascii``."""
    return text if bytes is str else text.encode("ascii")


def is_cpython():
    """True on CPython, where ``id()`` is an address.

    Read from ``sys`` (``implementation`` on 3.3+, ``subversion`` on 2.7), as
    ``platform.python_implementation()`` does in the end: importing
    ``platform`` compiles a dozen regular expressions, which start-up does not
    pay for (docs/performance.rst, "Start-up switches")."""
    implementation = getattr(sys, "implementation", None)
    if implementation is not None:
        return implementation.name == "cpython"
    return sys.subversion[0] == "CPython"
