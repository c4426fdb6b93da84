"""The fix: an IPv6 address string refused by its length first (gh-128840).

Before gh-128840 ``_BaseV6._ip_int_from_string``, which every
``IPv6Address``, ``IPv6Network``, ``IPv6Interface`` and ``ip_address`` call
parses through, split the whole string on ``':'`` before counting the
parts, and put the whole string in the error message: a 12 MB
``'ab:ab:...'`` costs a list of four million strings and hundreds of
megabytes before the "At most 8 colons permitted" error. gh-128840 (3.14;
3.13.4, 3.12.11, 3.11.13, 3.10.18 and 3.9.23) refuses a string longer than
45 characters, the longest an IPv6 address can be written
(``ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255``), before any other work,
with ``AddressValueError("At most 45 characters expected in %r")``; over
100 characters the string in the message is its first and last 45
characters around ``(N chars elided)``. The replacement makes that check
and then calls the original, so every string of 45 characters or fewer
gets exactly the stock result or error.

Upstream's change also splits with ``maxsplit=9``; within 45 characters
that costs nothing either way, and is not carried: the stock parser's
error message stays for the few invalid strings of 10 or more parts whose
last part has a dot.
"""

import sys
import types

__all__ = ["needs_fix", "replacements", "MAX_LENGTH"]

# Python 2/3: 2.7 ships no ``ipaddress``; a module of that name there is
# PyPI's backport, not a stdlib module for this distribution to patch.
_STDLIB_SHIPS_IT = sys.version_info[0] >= 3

#: The longest IPv6 address text (gh-128840), scope id and prefix apart.
MAX_LENGTH = 45

#: A string the stock parser refuses for its parts, the fixed one for its length.
_PROBE = "1" * (MAX_LENGTH + 1)


def _parser(module):
    """``_BaseV6``'s own ``_ip_int_from_string`` (a classmethod), or None."""
    base = vars(module).get("_BaseV6")
    parser = getattr(base, "__dict__", {}).get("_ip_int_from_string")
    return parser if isinstance(parser, classmethod) else None


def needs_fix(module):
    """Whether ``ipaddress`` (*module*) parses an IPv6 string of any length (gh-128840).

    A string of 46 ``1`` goes to ``_BaseV6._ip_int_from_string``: the fixed
    parser refuses its length, the stock one its parts. False where there is
    no such parser (2.7: no stdlib ``ipaddress`` at all)."""
    if not _STDLIB_SHIPS_IT or _parser(module) is None:
        return False
    try:
        module._BaseV6._ip_int_from_string(_PROBE)
    except module.AddressValueError as error:
        return not str(error).startswith("At most %d characters expected" % MAX_LENGTH)
    return True


def _shorten(ip_str):
    """The string as gh-128840's message shows it: over 100 characters, both ends."""
    if len(ip_str) > 100:
        return "%s(%d chars elided)%s" % (ip_str[:45], len(ip_str) - 90, ip_str[-45:])
    return ip_str


def replacements(module):
    """``{"_BaseV6._ip_int_from_string": classmethod}``: the length check, then the original.

    The original function and ``AddressValueError`` are the module's, read
    now; the new function has the original's name, docstring and
    qualified name."""
    if not _STDLIB_SHIPS_IT or _parser(module) is None:
        return {}
    original = _parser(module).__func__
    error = module.AddressValueError

    def _ip_int_from_string(cls, ip_str):
        if len(ip_str) > MAX_LENGTH:
            # gh-128840: refused before the split, its message of bounded size.
            raise error("At most %d characters expected in %r"
                        % (MAX_LENGTH, _shorten(ip_str)))
        return original(cls, ip_str)

    new = types.FunctionType(_ip_int_from_string.__code__, _ip_int_from_string.__globals__,
                             original.__name__, None, _ip_int_from_string.__closure__)
    new.__doc__ = original.__doc__
    new.__qualname__ = original.__qualname__
    new.__module__ = original.__module__
    return {"_BaseV6._ip_int_from_string": classmethod(new)}
