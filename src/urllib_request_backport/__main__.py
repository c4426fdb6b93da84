"""``python -m urllib_request_backport [--json]``: the self-check of CVE-2025-15282,
CVE-2020-8492 and CVE-2021-3733 (``_cpython_security._cli``, in the registry rows' words)."""

import sys

from _cpython_security._cli import main

if __name__ == "__main__":
    sys.exit(main("urllib_request_backport"))
