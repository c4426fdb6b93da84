"""``python -m ipaddress_backport [--json]``: the gh-128840 self-check
(``_cpython_security._cli``, in the registry row's words)."""

import sys

from _cpython_security._cli import main

if __name__ == "__main__":
    sys.exit(main("ipaddress_backport"))
