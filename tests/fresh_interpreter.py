"""Runs a script in a fresh interpreter of the test environment (framework adapter tests).

Each framework scenario needs its own process: what a framework binds at import
time depends on whether ``patch()`` ran first.
"""

import json
import os
import subprocess
import sys

#: The cache-poisoning query of CVE-2021-23336: a cache keyed on ``q`` sees
#: ``common_term``; a parser that splits on ``;`` also sees ``malicious_term``.
ATTACK = "q=common_term&utm_content=s;q=malicious_term"

_SHIM_VARIABLES = ("PYTHON_URLLIB_QS_SEPARATOR", "URLLIB_PARSE_BACKPORT_WARN",
                   "URLLIB_PARSE_BACKPORT_PATCH")


def run_json(code, args=(), quiet=False, **environ):
    """The last line *code* prints, as JSON, run with *args* in a fresh ``sys.executable``.

    None of the shim's variables is set except those in *environ*. *quiet*:
    also require an empty stderr.
    """
    env = dict(os.environ)
    for name in _SHIM_VARIABLES:
        env.pop(name, None)
    env.update(environ)
    process = subprocess.Popen([sys.executable, "-c", code] + list(args), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
    out, err = process.communicate()
    assert process.returncode == 0, err
    if quiet:
        assert err == ""
    return json.loads(out.strip().splitlines()[-1])


_RUNS = {}


def run_json_once(code, args=(), **environ):
    """:func:`run_json`, memoised for the test session: for scenarios several
    tests look at, in frameworks that are slow to import."""
    key = (code, tuple(args), tuple(sorted(environ.items())))
    if key not in _RUNS:
        _RUNS[key] = run_json(code, args, **environ)
    return _RUNS[key]
