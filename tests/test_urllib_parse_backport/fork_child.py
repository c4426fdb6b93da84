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
import signal
import sys
import threading
import warnings

import urllib_parse_backport as api

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
    warnings.simplefilter("ignore")  # 3.12+: DeprecationWarning, forking a threaded process
    release, thread = _hold_lock_in_thread()
    pids = []
    for _ in range(children):
        pid = os.fork()
        if pid == 0:  # the child: SIGALRM ends it if it hangs
            signal.alarm(5)
            try:
                api.is_patched()
                api.patch()
                api.status()
                api.unpatch()
            except BaseException:
                os._exit(3)
            os._exit(0)
        pids.append(pid)
    statuses = [os.waitpid(pid, 0)[1] for pid in pids]
    release.set()
    thread.join()
    api.unpatch()
    sys.stdout.flush()
    print(json.dumps({
        "answered": sum(1 for status in statuses if status == 0),
        "hung": sum(1 for status in statuses
                    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM),
        "children": len(pids)}, sort_keys=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1])))
