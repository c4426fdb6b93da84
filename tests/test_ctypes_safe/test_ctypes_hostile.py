"""Slot mode in a hostile process (issue 35): real signals inside ``patch()``/``unpatch()``,
health checks from a signal handler, a second copy of the package, fork() while threads log.

Each scenario runs in a fresh interpreter (ctypes_hostile_child.py, beside this file), seeded and
bounded in time, and killed if it hangs; slot mode as ``patch()`` picks it on 2.7.18 and
``patch(force=True)`` on 3.x.
"""

import os
import shutil
import signal

import pytest

import ctypes_helpers as helpers
import ctypes_safe

HOSTILE_CHILD = "ctypes_hostile_child.py"
FIXED_1_5 = "<cparam 'd' (1.5)>"

needs_timers = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")


def run(*args):
    return helpers.child_json(args, script=HOSTILE_CHILD, timeout=150)


@needs_timers
def test_patch_and_unpatch_interrupted_by_a_real_signal_leave_one_whole_state():
    # A one-shot timer of a random delay (seed 7) raises KeyboardInterrupt inside 2,000
    # patch()/unpatch() calls: after each, the slot and the dict entry agree and
    # is_patched() says what they hold; a plain patch() then puts the fixed repr in force.
    result = run("interrupted", 7, 2000, 90)
    assert result["interrupted"] >= 1000, result
    assert (result["mixed"], result["lied"]) == (0, 0), result
    assert (result["final_mode"], result["final_held"], result["final_is_patched"],
            result["final_repr"]) == ("slot", "python", True, FIXED_1_5)


@needs_timers
def test_health_checks_from_a_signal_handler_inside_patch_neither_block_nor_lie():
    # A SIGALRM handler calls is_patched() and status() every 100 us while the same thread
    # runs 3,000 patch/unpatch cycles (before: a hang on 2.7, a fatal stack overflow on 3.8).
    result = run("handler_health", 11, 3000, 90)
    assert result["cycles"] == 3000 and result["checks"] > 100, result
    assert result["lies"] == 0, result


def test_a_second_copy_reports_the_interpreter_and_someone_elses_fix(tmp_path):
    # A copy vendored under another name, imported after this one patched: the repr in force
    # is someone else's fix, never a reason to call the interpreter fixed; once that fix is
    # gone, the stock repr is back and, on 2.7.18, the process is exposed.
    package = os.path.dirname(os.path.abspath(ctypes_safe.__file__))
    shutil.copytree(package, str(tmp_path / "vendored_ctypes_safe"))
    result = run("second_copy", str(tmp_path))
    vulnerable = not helpers.FIXED
    assert result["first_mode"] == "slot"
    assert result["during"] == {"vulnerable": vulnerable, "exposed": False, "patched": False,
                                "repr_by": "someone else"}
    assert result["after"] == {"vulnerable": vulnerable, "exposed": vulnerable,
                               "patched": False, "repr_by": "stock"}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_children_of_a_threaded_logging_process_never_hang_in_patch():
    # Three threads patch and unpatch, one logs through many loggers; 150 children each
    # patch() and unpatch() within 5 s (before: 37 of 150 hung on 2.7.18).
    assert run("fork_logging", 150) == {"children": 150, "answered": 150, "hung": 0}
