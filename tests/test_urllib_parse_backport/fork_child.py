"""Fork while another thread holds urllib_parse_backport's lock: does each child's API answer?

Run as ``python tests/test_urllib_parse_backport/fork_child.py CHILDREN`` by
test_fork.py: a thread's ``patch()`` is stopped in a log handler (inside the
lock), then CHILDREN children are forked; each gets 5 s (SIGALRM) to run
``is_patched()``, ``patch()``, ``status()`` and ``unpatch()``. Prints one JSON
line. It imports the installed package, never the source tree.
"""

from __future__ import print_function

import json
import logging
import os
import sys
import threading

import urllib_parse_backport as api

# A script of this folder has only this folder on sys.path: the shared helpers too.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "helpers"))
import child_scripts  # noqa: E402

PACKAGE = "urllib_parse_backport"


def _hold_lock_in_thread():
    """Stop a thread's ``patch()`` inside the lock (in a log handler); return (release, thread)."""
    inside, release = threading.Event(), threading.Event()

    class Blocking(logging.Handler):
        def emit(self, record):
            logging.getLogger(PACKAGE).removeHandler(self)
            inside.set()
            release.wait(30)

    logging.getLogger(PACKAGE).addHandler(Blocking())
    logging.getLogger(PACKAGE).setLevel(logging.DEBUG)  # patch() logs at INFO
    thread = threading.Thread(target=api.patch)
    thread.start()
    assert inside.wait(10), "the thread never got inside the lock"
    return release, thread


def main(children):
    release, thread = _hold_lock_in_thread()
    result = child_scripts.forked_calls(api, children)
    release.set()
    thread.join()
    api.unpatch()
    sys.stdout.flush()
    print(json.dumps(result, sort_keys=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
