"""The rows of ``ipaddress_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE, PY2
from .._row import Fix

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(package="ipaddress_backport", cve="gh-128840", issue="gh-128840",
        summary="IPv6 address strings split in full before their length is checked "
                "(memory exhaustion)",
        exposed="a 12 MB IPv6 address string costs this process hundreds of megabytes",
        unfixed="splits an IPv6 address string of any length on every ':'",
        behaviour="an IPv6 address string longer than 45 characters is refused "
                  "(AddressValueError), as upstream refuses it",
        # 2.7 ships no ipaddress: nothing to fix there.
        replaces=[] if PY2 else ["ipaddress._BaseV6._ip_int_from_string"],
        fix="ipaddress_backport._ipv6", module="ipaddress",
        variable="IPADDRESS_BACKPORT_PATCH", options=FORCE),
)
