"""``python -m ctypes_safe [--json] [--probe]``: the CVE-2021-3177 self-check."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
