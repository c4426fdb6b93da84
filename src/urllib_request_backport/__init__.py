"""``urllib.request`` (``urllib2`` on 2.7) fixes: ``data:`` URL media types without
control characters (CVE-2025-15282, gh-143925) and the basic-auth realm regex
in linear time (CVE-2020-8492, bpo-39503; CVE-2021-3733, bpo-43075).

Both are on a client's path: ``urlopen("data:...")`` writes the URL's media
type into the response's headers, and ``HTTPBasicAuthHandler`` (and
``ProxyBasicAuthHandler``) run the realm regex on the ``WWW-Authenticate``
header of every 401 a server (or a proxy, or a redirect's target) sends.
:func:`patch` binds the fixed code where the stock code lacks it. Importing
this package changes nothing.

Module map: ``_data_url`` (gh-143925), ``_basic_auth`` (bpo-39503: the 2.7
handler's search, and the linear :func:`~urllib_request_backport.old_search`),
``_basic_auth_rx`` (bpo-43075: the pattern). The patch functions, start-up
switch, logging and ``python -m`` are the shared package's
(``_cpython_security._engine``, ``_startup``, ``_cli``), driven by this
package's rows in its registry.
"""

from _cpython_security._engine import public_face
from _cpython_security._report import PatchReport
from _cpython_security._version import __version__

from ._basic_auth import FIXED_RX, old_search

patch, unpatch, is_patched, is_vulnerable, status = public_face(__name__)

__all__ = [
    "FIXED_RX",
    "old_search",
    "patch",
    "unpatch",
    "is_patched",
    "is_vulnerable",
    "status",
    "PatchReport",
    "__version__",
]
