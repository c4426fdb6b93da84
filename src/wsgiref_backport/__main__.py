"""``python -m wsgiref_backport [--json]``: the self-check of the ``wsgiref``
header-injection guards (``_cpython_security._cli``, in the registry rows' words)."""

import sys

from _cpython_security._cli import main

if __name__ == "__main__":
    sys.exit(main("wsgiref_backport"))
