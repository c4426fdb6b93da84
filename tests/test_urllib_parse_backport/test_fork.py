"""A child forked while another thread holds the package's lock answers (fork_child.py).

The thread's ``patch()`` is stopped in a log handler; each child gets 5 s.
"""

import os

import pytest

from child_scripts import child_json

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fork_child.py")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_while_another_thread_holds_the_lock_does_not_hang():
    result = child_json(CHILD, [3], timeout=120)
    assert result == {"answered": 3, "hung": 0, "children": 3}
