"""``CPYTHON_SECURITY_SKIP=<id>`` keeps off each fix that changes behaviour, as README says.

README and the coverage page tell an operator to keep such a fix off with
``CPYTHON_SECURITY_SKIP`` and the ids ``_registry.keep_off`` gives. For every
row whose ``behaviour`` is set, the switch with those ids skipped must leave
exactly those fixes exposed where this interpreter lacks them, and every
other fix as the switch alone leaves it. Before, an id
written ``gh-...`` (gh-128840, gh-150743) was read upper-case and matched
no row: the fix stayed applied and nothing was said.
"""

import pytest

from internals import shared_registry
from umbrella_helpers import check_exposed

CHANGING = [fix.cve for fix in shared_registry.FIXES if fix.behaviour]
ROWS = dict((fix.cve, fix) for fix in shared_registry.FIXES)


@pytest.fixture(scope="module")
def lacked():
    return check_exposed()


@pytest.mark.parametrize("fix", CHANGING)
def test_the_skip_keeps_that_fix_off_and_only_it(fix, lacked):
    # The value the docs give (keep_off): the fix's id, and those of the fixes of its
    # package that replace the same function (2.7: gh-150743's begin() bounds
    # CVE-2021-3737's headers too, so skipping one of them alone keeps nothing off).
    ids = shared_registry.keep_off(ROWS[fix])
    found = check_exposed(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP=",".join(ids))
    assert found == [each for each in lacked if each in ids]


def test_some_fix_changes_behaviour():
    assert CHANGING
