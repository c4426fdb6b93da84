"""Decide a tox run from its ``--result-json`` file, never from its printed text.

    python tools/tox_results.py RESULT.json ENV [ENV...]

Exit 0 when every ENV is in the file and succeeded; 1 otherwise. For each
failed environment it prints which command failed and how: a test process
killed by a signal (a negative return code) is a crash, shown with the last
lines of its standard error (where ``PYTHONFAULTHANDLER`` writes the
traceback) and output, and fails the run like any failure: it is not re-run.
"""

from __future__ import print_function

import json
import signal
import sys

TAIL = 60


def _signal_name(number):
    try:
        return signal.Signals(number).name
    except (AttributeError, ValueError):
        return "signal %d" % number


def _tail(text, lines=TAIL):
    return "\n".join((text or "").rstrip("\n").split("\n")[-lines:])


def failures(results, envs):
    """``[(env, description)]`` of the environments in *envs* that did not succeed."""
    found = results.get("testenvs", {})
    failed = []
    for env in envs:
        info = found.get(env)
        if info is None:
            failed.append((env, "no result: the environment did not run"))
            continue
        if info.get("result", {}).get("success"):
            continue
        commands = info.get("setup", []) + info.get("test", [])
        bad = [c for c in commands if c.get("retcode") not in (0, None)]
        if not bad:
            failed.append((env, "failed (exit code %s)" % info.get("result", {}).get("exit_code")))
            continue
        command = bad[-1]
        code = command["retcode"]
        what = " ".join(command.get("command", []))
        if code < 0:
            text = "CRASHED: %s killed by %s\n--- stderr (last %d lines) ---\n%s\n" \
                "--- output (last %d lines) ---\n%s" % (
                    what, _signal_name(-code), TAIL, _tail(command.get("err")), TAIL,
                    _tail(command.get("output")))
        else:
            # Run in parallel, tox prints no environment's output as it goes: its tail here.
            text = "failed: %s exited %d\n--- output (last %d lines) ---\n%s" % (
                what, code, TAIL, _tail(command.get("output")))
        failed.append((env, text))
    return failed


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[0]) as handle:
        text = handle.read()
    if not text.strip():  # tox stopped before any environment ran (a usage error)
        print("tools/matrix: tox wrote no results: no environment ran")
        return 1
    results = json.loads(text)
    failed = failures(results, argv[1:])
    for env, text in failed:
        print("tools/matrix: %s: %s" % (env, text))
    if not failed:
        print("tools/matrix: all %d environments passed" % (len(argv) - 1,))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
