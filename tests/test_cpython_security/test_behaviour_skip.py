"""``CPYTHON_SECURITY_SKIP=<id>`` keeps off each fix that changes behaviour, as README says.

README and the coverage page tell an operator to keep such a fix off with
its id. For every row whose ``behaviour`` is set, the switch with that id
skipped must leave exactly that fix exposed where this interpreter lacks
it, and every other fix as the switch alone leaves it. Before, an id
written ``gh-...`` (gh-128840, gh-150743) was read upper-case and matched
no row: the fix stayed applied and nothing was said.
"""

import pytest

from internals import shared_registry
from umbrella_helpers import check_exposed

CHANGING = [fix.cve for fix in shared_registry.FIXES if fix.behaviour]


@pytest.fixture(scope="module")
def lacked():
    return check_exposed()


@pytest.mark.parametrize("fix", CHANGING)
def test_the_skip_keeps_that_fix_off_and_only_it(fix, lacked):
    found = check_exposed(CPYTHON_SECURITY_PATCH="1", CPYTHON_SECURITY_SKIP=fix)
    assert found == [each for each in [fix] if each in lacked]


def test_some_fix_changes_behaviour():
    assert CHANGING
