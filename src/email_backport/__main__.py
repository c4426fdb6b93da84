"""``python -m email_backport [--json]``: the self-check of CVE-2024-6923, gh-144125 and
gh-136063 (``_cpython_security._cli``, in the registry rows' words)."""

import sys

from _cpython_security._cli import main

if __name__ == "__main__":
    sys.exit(main("email_backport"))
