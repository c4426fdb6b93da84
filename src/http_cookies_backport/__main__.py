"""``python -m http_cookies_backport [--json]``: the CVE-2024-7592 self-check."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
