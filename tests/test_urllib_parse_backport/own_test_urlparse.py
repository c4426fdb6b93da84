"""Run this interpreter's own ``test_urlparse`` against the stdlib as ``patch()`` leaves it.

Usage: ``python tests/test_urllib_parse_backport/own_test_urlparse.py`` (with the package
importable). ``urllib_parse_backport.patch(leave_out=["CVE-2021-23336"])``
gives the stdlib's ``urlsplit`` each later fix it lacks (``urlparse``,
``urljoin``, ``urldefrag`` split through it; ``clear_cache()`` empties its
cache); the ``parse_qs`` fix is left out, since the suite's own
``parse_qsl`` tests assert what an unfixed stdlib does on 2.7. Prints
unittest's report, then one JSON line: ``[names of the tests that failed
or erred, the report's fixes]``.
"""

import json
import sys
import unittest

import urllib_parse_backport

from test import test_urlparse as suite


def main():
    report = urllib_parse_backport.patch(leave_out=["CVE-2021-23336"])
    result = unittest.TextTestRunner(verbosity=1).run(
        unittest.defaultTestLoader.loadTestsFromModule(suite))
    failed = sorted(set(test.id().rpartition(".")[2]
                        for test, _ in result.failures + result.errors))
    sys.stdout.write(json.dumps([failed, report.fixes]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
