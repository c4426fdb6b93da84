"""CVE-2021-3733's row (bpo-43075): ``AbstractBasicAuthHandler.rx`` becomes bpo-43075's
pattern where the stock one is not it. The probe and the binding are
``_basic_auth``'s, which says why (the engine reads one fix module per row)."""

from ._basic_auth import needs_fix_pattern as needs_fix
from ._basic_auth import replace_pattern as replacements

__all__ = ["needs_fix", "replacements"]
