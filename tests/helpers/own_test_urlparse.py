"""Run this interpreter's own ``test_urlparse`` with ``urlsplit``/``urlparse`` fixed.

Usage: ``python tests/helpers/own_test_urlparse.py`` (with the package
importable). The stdlib module's ``urlsplit`` and ``urlparse`` are rebound to
the backport's, built on the module's own cache (so ``clear_cache()`` still
empties it), and the module's other functions (``urljoin``, ``urldefrag``...)
split through them. Prints unittest's report, then one JSON line: the names
of the tests that failed or erred.
"""

import json
import sys
import unittest

from urllib_parse_backport._parse import split_family

if sys.version_info[0] == 2:  # pragma: no cover - exercised on 2.7
    import urlparse as module
    from test import test_urlparse as suite
else:
    import urllib.parse as module
    from test import test_urlparse as suite


def main():
    original = module.urlsplit
    split = split_family.make_urlsplit(cache=getattr(module, "_parse_cache", None),
                                       clear=getattr(module, "clear_cache", None),
                                       original=original)
    module.urlsplit = split
    module.urlparse = split_family.make_urlparse(split)
    module.clear_cache()
    result = unittest.TextTestRunner(verbosity=1).run(
        unittest.defaultTestLoader.loadTestsFromModule(suite))
    failed = sorted(set(test.id().rpartition(".")[2]
                        for test, _ in result.failures + result.errors))
    sys.stdout.write(json.dumps(failed) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
