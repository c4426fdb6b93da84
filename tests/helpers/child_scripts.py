"""Scenario scripts run in a fresh interpreter, one JSON line each: both ends.

A test runs ``script SCENARIO ARGS...`` with :func:`child` (or
:func:`child_json`); the script's ``main`` is :func:`run_scenario`, which
calls its ``scenario_SCENARIO(*ARGS)`` and prints the result as its last
line. Unlike :mod:`fresh_interpreter`'s runs (a code string, a scenario of
``tests/scenarios``), these take a timeout: some scenarios hang or crash on
an interpreter that lacks a fix, which is what their tests look for.

A script beside this file is named by its file name; any other by its path.
This module imports nothing from the tests' other helpers: a script run from
another folder imports it with only that folder and this one on ``sys.path``.
"""

from __future__ import print_function

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _start_up_variables():
    """Every variable a fix package reads at start-up: each registry row's."""
    from _cpython_security._registry import FIXES
    names = set()
    for fix in FIXES:
        names.add(fix.variable)
        names.update(fix.also_variables)
    return sorted(name for name in names if name)


def child(script, args, environ=None, module=None, timeout=None):
    """Run ``script *args`` (or ``-m module *args``) in a fresh interpreter.

    Returns ``(returncode, stdout, stderr)``; after *timeout* seconds the
    process is killed (the return code then says SIGKILL). None of the fix
    packages' start-up variables is inherited; *environ* adds variables.
    """
    import threading
    env = dict(os.environ)
    for name in _start_up_variables():
        env.pop(name, None)
    env.update(environ or {})
    command = [sys.executable] + (["-m", module] if module else [os.path.join(HERE, script)])
    process = subprocess.Popen(command + [str(arg) for arg in args], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    timer = threading.Timer(timeout, process.kill) if timeout else None
    if timer is not None:
        timer.start()
    try:
        out, err = process.communicate()
    finally:
        if timer is not None:
            timer.cancel()
    return process.returncode, out.decode("utf-8"), err.decode("utf-8", "replace")


def child_json(script, args, environ=None, timeout=None):
    """:func:`child`, requiring success; the JSON its last output line holds."""
    code, out, err = child(script, args, environ, timeout=timeout)
    assert code == 0, (code, out, err)
    return json.loads(out.strip().splitlines()[-1])


def run_scenario(namespace, argv):
    """The ``main()`` of a child script: run ``scenario_<argv[0]>(*argv[1:])`` of
    *namespace* (the script's globals) and print its result as one JSON line, the
    last; returns the exit status, 0.

    stdout is flushed before the line, so that it stands after whatever the
    scenario printed, and after it, so that the line is out before a crash at
    shutdown (which some scenarios provoke) could lose it."""
    result = namespace["scenario_" + argv[0]](*argv[1:])
    sys.stdout.flush()
    print(json.dumps(result, sort_keys=True))
    sys.stdout.flush()
    return 0


def forked_calls(api, children, **patch_options):
    """Fork *children* children while another thread holds *api*'s lock (the
    caller has stopped it there): each child gets 5 s (SIGALRM) to run
    ``is_patched()``, ``patch(**patch_options)``, ``status()`` and
    ``unpatch()``. Returns how many answered, how many hung, out of how many."""
    import signal
    import warnings
    warnings.simplefilter("ignore")  # 3.12+: DeprecationWarning, forking a threaded process
    pids = []
    for _ in range(int(children)):
        pid = os.fork()
        if pid == 0:  # the child: SIGALRM ends it if it hangs
            signal.alarm(5)
            try:
                api.is_patched()
                api.patch(**patch_options)
                api.status()
                api.unpatch()
            except BaseException:
                os._exit(3)
            os._exit(0)
        pids.append(pid)
    statuses = [os.waitpid(pid, 0)[1] for pid in pids]
    return {"answered": sum(1 for status in statuses if status == 0),
            "hung": sum(1 for status in statuses
                        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM),
            "children": len(pids)}
