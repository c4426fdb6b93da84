"""``python -m html_parser_backport [--json]``: the self-check of CVE-2025-6069 and
CVE-2026-15308 (``_cpython_security._cli``, in the registry rows' words)."""

import sys

from _cpython_security._cli import main

if __name__ == "__main__":
    sys.exit(main("html_parser_backport"))
