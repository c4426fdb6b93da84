"""Shared data for the ipaddress_backport tests: the stdlib module, the fix, memory.

2.7 ships no ``ipaddress``: :data:`STDLIB` is None there, and the tests that
parse addresses skip; the package's own face says there is nothing to fix.

*Memory* is what ``tracemalloc`` (CPython) sees allocated at the peak of a
call, the input string made before tracing starts: the stock parser's
list of parts grows with the string, the fixed one's refusal does not.
"""

import contextlib
import sys

from ipaddress_backport import _ipv6 as fix

PY2 = sys.version_info[0] == 2
try:
    import ipaddress as STDLIB
except ImportError:  # pragma: no cover - 2.7 (PyPI's backport, if any, is not the stdlib)
    STDLIB = None
if PY2:  # pragma: no cover - exercised by the py27 environment
    STDLIB = None

#: ``_BaseV6``'s stock parser (the classmethod object), read before any test binds anything.
STOCK = None if STDLIB is None else vars(STDLIB._BaseV6)["_ip_int_from_string"]


@contextlib.contextmanager
def bound():
    """The fix's replacement bound in ``_BaseV6`` while the block runs."""
    new = fix.replacements(STDLIB)["_BaseV6._ip_int_from_string"]
    old = vars(STDLIB._BaseV6)["_ip_int_from_string"]
    STDLIB._BaseV6._ip_int_from_string = new
    try:
        yield new
    finally:
        STDLIB._BaseV6._ip_int_from_string = old


def outcome(function, *args):
    """``("ok", value)`` or ``("error", type name, message)`` of ``function(*args)``."""
    try:
        value = function(*args)
    except Exception as exc:  # noqa: B902 - the outcome is what is compared
        return ("error", type(exc).__name__, str(exc))
    return ("ok", str(value))


def peak_memory(function, *args):
    """The bytes ``tracemalloc`` sees at the peak of ``function(*args)``, or None (PyPy)."""
    try:
        import tracemalloc
    except ImportError:
        return None
    tracemalloc.start()
    try:
        outcome(function, *args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def upstream_message(ip_str):
    """gh-128840's message for a string over 45 characters, as its f-string writes it."""
    shorten = ip_str
    if len(shorten) > 100:
        shorten = "{0}({1} chars elided){2}".format(ip_str[:45], len(ip_str) - 90, ip_str[-45:])
    return "At most 45 characters expected in {0!r}".format(shorten)
