"""What the test interpreter's own stdlib does about bpo-42967, found by behaviour.

Tests that expect the stdlib to split on ``';'`` (or not) ask this module
rather than the version number: 2.7.18 is unfixed, the 3.x releases installed
here are fixed, and the ``py3X-unfixed`` tox environments put a copy of the
3.x stdlib with the fix reverted in front (tools/unfixed_stdlib.py). Computed
once, at the first import, which happens at collection, before any test
patches anything.
"""

import os
import sys
import warnings

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    import urlparse as STDLIB
else:
    import urllib.parse as STDLIB

#: True where the stdlib parser splits 'a=1;b=2' in two: patch() without
#: force has something to fix.
UNFIXED = len(STDLIB.parse_qsl("a=1;b=2")) == 2


def _split_lacks():
    """Which urlsplit fixes the stdlib lacks, by the behaviour each fix changes
    (the cases of the fixes' own upstream tests)."""
    def accepts(url):
        try:
            STDLIB.urlsplit(url)
        except ValueError:
            return False
        return True
    return {
        "CVE-2023-24329": STDLIB.urlsplit(" http://h/")[1] != "h",
        "CVE-2022-0391": STDLIB.urlsplit("http://a\tb/")[1] != "ab",
        "CVE-2024-11168": accepts("http://[1.2.3.4]/"),
        "CVE-2025-0938": accepts("http://[::1]evil/"),
    }


#: ``{CVE: whether the stdlib's urlsplit lacks that fix}``.
SPLIT_LACKS = _split_lacks()

#: True where patch() without force has anything to fix in the stdlib.
LACKS_A_FIX = UNFIXED or any(SPLIT_LACKS.values())

#: The ``force`` argument that makes patch() replace the stdlib parsers here.
FORCE = not UNFIXED

#: Set by tox in the py3X-unfixed environments (tox.ini): the stdlib must be unfixed.
EXPECTED_UNFIXED = sys.version_info[0] == 2 or bool(os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB"))


def cgi_module():
    """The ``cgi`` module, or None where it is gone (3.13)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.11, 3.12 (PEP 594)
        try:
            import cgi
        except ImportError:
            return None
    return cgi
