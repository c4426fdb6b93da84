"""``python -m tempfile_backport [--json]``: the CVE-2023-6597 self-check
(``_cpython_security._cli``, in the registry row's words)."""

import sys

from _cpython_security._cli import main

if __name__ == "__main__":
    sys.exit(main("tempfile_backport"))
