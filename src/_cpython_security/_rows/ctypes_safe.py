"""The rows of ``ctypes_safe``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE
from .._probes import repr_unfixed as _repr_unfixed
from .._row import Fix

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(package="ctypes_safe", cve="CVE-2021-3177", issue="bpo-42938",
        summary="ctypes parameter repr overflows a stack buffer",
        exposed="repr() of a ctypes double parameter can overflow the stack in this process",
        replaces=["_ctypes.CArgObject.__repr__"], probes={"ctypes": _repr_unfixed},
        variable="CTYPES_SAFE_PATCH", options=FORCE),
)
