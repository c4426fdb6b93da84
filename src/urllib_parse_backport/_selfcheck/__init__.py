"""The self-check: what this process's query parsers do with ``;``, and the verdict.

``status()`` (computed by ``_status``) and ``python -m urllib_parse_backport``
(``_cli``). This layer reads the shim's state and the parsers; nothing below
it imports it.
"""

import sys

from _cpython_security._import_hook import importing
from _cpython_security._ledger import called_inside, mark_busy
from _cpython_security._report import common_status

from .._shim._api import ACTIVATION_VARIABLE, patch, unpatch
from .._shim._state import state
from .._version import __version__

__all__ = ["status"]


def status():
    """This process's self-check as a dict: what ``python -m urllib_parse_backport --json`` prints.

    Computed here, in the calling process: the stdlib parser as this process
    calls it, the shim's report, the separator policy, the parsers of
    installed frameworks and their checks a fix breaks (``framework_checks``:
    Django's ``URLValidator``, CVE-2021-32052), each imported to be probed.
    ``status()["exposed"]`` is the verdict; expose it in a health check (see
    the Operations page).
    Called inside ``patch()``, ``unpatch()`` or ``status()`` of its own thread (a
    signal handler), it starts no import and probes nothing: every fix counts
    as exposed until the call it interrupted has finished.
    """
    if called_inside():
        return _inside()
    from ._status import status as collect
    return collect()


def _inside():
    """What :func:`status` knows without an import or a probe."""
    package = __name__.split(".")[0]
    name = "_cpython_security._rows." + package
    loaded = None if importing(name) else sys.modules.get(name)
    rows = getattr(loaded, "ROWS", ())
    info = common_status(package, __version__, "CVE-2021-23336", state.changed_something(),
                         state.report, ACTIVATION_VARIABLE, True)
    info["fixes"] = dict((row.cve, {"lacks": True, "exposed": True, "issue": row.issue,
                                    "state": "not patched"}) for row in rows)
    return info


mark_busy(patch, unpatch, status)
