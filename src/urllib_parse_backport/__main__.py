"""``python -m urllib_parse_backport [--json]``: the CVE-2021-23336 self-check."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
