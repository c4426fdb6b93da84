"""The one way the tests run code in a fresh interpreter of the test environment.

A fresh process matters whenever the answer depends on start-up (the ``.pth``
files) or on import order (what a framework binds depends on whether
``patch()`` ran first). Every run starts from the test process's environment
with the packages' own variables removed, then adds those the test names.
"""

import json
import os
import subprocess
import sys

from scenarios.attack import ATTACK, SAFE, SMUGGLED

__all__ = ["ATTACK", "SAFE", "SMUGGLED", "run", "run_code", "run_json", "run_once", "run_scenario",
           "run_scenario_once", "SCENARIOS"]

#: Every variable either package (or Python's warnings) reads at start-up.
VARIABLES = ("PYTHON_URLLIB_QS_SEPARATOR", "URLLIB_PARSE_BACKPORT_WARN",
             "URLLIB_PARSE_BACKPORT_PATCH", "CTYPES_SAFE_PATCH", "HTTP_COOKIES_BACKPORT_PATCH",
             "CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP", "PYTHONWARNINGS")

#: The directory of the scenario scripts (tests/scenarios).
SCENARIOS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "scenarios")


def run(args, cwd=None, stdout=subprocess.PIPE, executable=None, **environ):
    """Run ``sys.executable *args`` (or *executable*'s, in *cwd*); returns ``(returncode,
    stdout, stderr)`` (stdout None when *stdout*, a file or descriptor, received it)."""
    env = dict(os.environ)
    for name in VARIABLES:
        env.pop(name, None)
    env.update(environ)
    process = subprocess.Popen([executable or sys.executable] + list(args), env=env, cwd=cwd,
                               stdout=stdout, stderr=subprocess.PIPE,
                               universal_newlines=True)
    out, err = process.communicate()
    return process.returncode, out, err


_ONCE = {}


def run_once(args, **environ):
    """:func:`run`, memoised for the test session by its arguments and environment:
    for runs that only read (``cpython-security-check``, a fresh process's status
    report) and that several tests ask the same. Nothing a test session does between
    two such runs changes what they read: the installed packages stay as they are,
    and a test that changes files passes a directory of its own (``PYTHONPATH``)."""
    key = (tuple(args), tuple(sorted(environ.items())))
    if key not in _ONCE:
        _ONCE[key] = run(args, **environ)
    return _ONCE[key]


def run_code(code, args=(), flags=(), **environ):
    """:func:`run` of ``python [flags] -c code [args]``."""
    return run(list(flags) + ["-c", code] + list(args), **environ)


def _last_json_line(returncode, out, err, quiet):
    assert returncode == 0, err
    if quiet:
        assert err == ""
    return json.loads(out.strip().splitlines()[-1])


def run_json(code, args=(), quiet=False, **environ):
    """The last line *code* prints, as JSON; the run must succeed (and, if
    *quiet*, write nothing to stderr)."""
    return _last_json_line(*run_code(code, args, **environ), quiet=quiet)


def run_scenario(name, args=(), quiet=False, **environ):
    """The last line ``tests/scenarios/<name>.py args`` prints, as JSON."""
    script = os.path.join(SCENARIOS, name + ".py")
    return _last_json_line(*run([script] + list(args), **environ), quiet=quiet)


_RUNS = {}


def run_scenario_once(name, args=(), **environ):
    """:func:`run_scenario`, memoised for the test session: for scenarios several
    tests look at, in frameworks that are slow to import."""
    key = (name, tuple(args), tuple(sorted(environ.items())))
    if key not in _RUNS:
        _RUNS[key] = run_scenario(name, args, **environ)
    return _RUNS[key]


_HIDDEN = []


def without_future():
    """A ``PYTHONPATH`` on which python-future does not import. The check reports its
    copies of stdlib modules (exposed ones no switch can fix, tests/test_stdlib_copies*);
    a test about the stdlib alone runs the check with this."""
    if not _HIDDEN:
        import atexit
        import shutil
        import tempfile
        folder = tempfile.mkdtemp()
        atexit.register(shutil.rmtree, folder, True)
        os.mkdir(os.path.join(folder, "future"))
        with open(os.path.join(folder, "future", "__init__.py"), "w") as handle:
            handle.write("raise ImportError('python-future hidden from this test')\n")
        _HIDDEN.append(folder)
    return _HIDDEN[0]
