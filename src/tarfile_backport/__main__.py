"""``python -m tarfile_backport [--json]``: the CVE-2025-8194 self-check
(``_cpython_security._cli``, in the registry row's words)."""

import sys

from _cpython_security._cli import main

if __name__ == "__main__":
    sys.exit(main("tarfile_backport"))
