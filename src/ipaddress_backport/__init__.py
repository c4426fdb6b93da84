"""IPv6 address parsing refused by length first (gh-128840).

The stdlib's ``ipaddress`` (3.x), whose ``IPv6Address``, ``IPv6Network``,
``IPv6Interface``, ``ip_address`` and ``ip_network`` parse addresses from
configuration, headers (``X-Forwarded-For``) and user input, split an IPv6
string on every ``':'`` before the fix: a 12 MB ``'ab:ab:...'`` costs
about 300 MB and most of a second before it is refused. :func:`patch` puts
gh-128840's check in front of ``_BaseV6._ip_int_from_string``: a string
longer than 45 characters raises ``AddressValueError("At most 45
characters expected in ...")`` before any other work. 2.7 ships no
``ipaddress``: nothing to fix there. Importing this package changes
nothing.

Module map: ``_ipv6`` (the fix: ``needs_fix``, ``replacements``). The
patch functions, start-up switch, logging and ``python -m`` are the shared
package's (``_cpython_security._engine``, ``_startup``, ``_cli``), driven by
this package's row in its registry.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = [
    "patch",
    "unpatch",
    "is_patched",
    "is_vulnerable",
    "status",
    "PatchReport",
    "__version__",
]
