"""The trials of issue 46 against the urlsplit fixes and every package on the shared
engine (each new fix gets them by its registry row): a stale cache, an interrupt anywhere
in patch() or unpatch(), fork() during the first patch(), a re-imported stdlib module.

Each runs in a fresh interpreter (tests/helpers/patch_trials_child.py), without timing:
a thread is held inside a function by a tracer while the step under test runs, and a
KeyboardInterrupt is raised by a tracer at each line (3.7+: each bytecode too) of the
packages' own code in turn, as a signal handler's would be. The audit's trial is in
test_urllib_parse_backport/test_audit_urlsplit.py.
"""

import os
import signal
import sys
import zlib

import pytest

from child_scripts import child_json
from internals import ENGINE_PACKAGES, ships

#: py3X-unfixed reverts bpo-42967 only: the engine packages' trials run in py3X itself.
TRIED = ["urllib"] + ([] if os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB") == "1"
                      else ENGINE_PACKAGES)

TRIALS_CHILD = "patch_trials_child.py"
FORK_CHILD = "fork_trials_child.py"
SIGNAL_CHILD = "signal_trials_child.py"


def run(*args, **kwargs):
    return child_json(kwargs.get("script", TRIALS_CHILD), args, timeout=600)


def test_no_unfixed_result_cached_before_patch_is_served_after_it():
    # Trial 1: a thread inside the original urlsplit stores its unfixed result after
    # patch() emptied the caches (before: every cycle on 2.7, 3.6 and 3.8). From 3.11 the
    # original is an lru_cache, whose own cache no patch can close: a reference to it that
    # no scan reaches (in a container) may still be served that result (docs/urlsplit.rst).
    result = run("stale_cache", 10)
    assert result["by_name"] == 0, result
    if sys.version_info < (3, 11):
        assert result["by_alias"] == 0, result


#: 3.7+ traces bytecodes: there the engine's code is interrupted at each bytecode and the
#: rest at each line ("opcodes"), which holds every interrupt a line trace makes (a line
#: event and its first bytecode's event come before the same instruction).
MODES = ["opcodes"] if sys.version_info >= (3, 7) else ["lines"]
#: Every event with BACKPORT_FULL_TRIALS=1 (1,200 to 10,400 interrupts a call: about
#: 7 minutes an interpreter). Else the first event at each place (a line, or a bytecode)
#: of the call, and every 8th event or more, from one this interpreter's version picks
#: (the matrix as a whole lands on many residues), at most SAMPLED of those: a call's
#: cost then stays bounded as a package's scans grow, and no place goes untried (3.8's
#: urllib patch(): 481 places of 12,054 events, and 48 more).
FULL = os.environ.get("BACKPORT_FULL_TRIALS") == "1"
STRIDE = 1 if FULL else 8
FIRST = 1 + zlib.crc32(sys.version.encode("ascii", "replace")) % 1024
SAMPLED = 0 if FULL else 48


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("call", ["patch", "unpatch"])
@pytest.mark.parametrize("which", TRIED)
def test_a_keyboardinterrupt_anywhere_in_patch_or_unpatch(which, call, mode):
    # Trials 2 and 3: after each interrupt, is_patched() and status() say what the
    # bindings hold, and a second call finishes the job (before: unpatch() left both
    # saying "patched", and a patch() stopped after storing its report made every later
    # patch() return it and patch nothing).
    if which != "urllib" and not ships(which):
        pytest.skip("this interpreter ships no module of %s: nothing to bind" % which)
    result = run("interrupted", which, call, mode, str(STRIDE), str(FIRST), str(SAMPLED))
    assert result["interrupted"] >= result["places"] > 0, result
    assert (result["lied"], result["status_lied"], result["unfinished"],
            result["inert"]) == ([], [], [], []), result


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.parametrize("which", TRIED)
def test_a_child_forked_during_the_first_patch_never_hangs(which):
    # Trial 4: forked while another thread is inside each import of the first patch()
    # in turn, the child's patch() and status() answer (before: blocked on an import
    # lock on 3.6, 3.8 and 3.13).
    if which != "urllib" and not ships(which):
        pytest.skip("this interpreter ships no module of %s: nothing to bind" % which)
    result = run("fork_first_patch", which, script=FORK_CHILD)
    assert result["children"] > 0
    assert (result["hung"], result["failed"]) == ([], []), result


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.parametrize("held", ["module", "handler"] + (
    ["module-inner"] if sys.version_info[0] == 2 else []))
@pytest.mark.parametrize("which", TRIED + ["ctypes_safe"])
def test_a_child_forked_while_a_thread_holds_a_logging_lock_never_hangs(which, held):
    # Trial 4b: the process's first patch() looks its logger up (logging's module lock)
    # and logs through the application's handlers (each one's lock). 3.7+ renews both in
    # a forked child; before this trial 2.7 and 3.6 hung there for good (seen on 2.7 in
    # trial 4, when the fork landed inside the other thread's first getLogger()). On 2.7
    # also between the two steps of the lock's acquire(): the inner lock held, no owner
    # named (seen in trial 4 on a loaded machine).
    if which not in ("urllib", "ctypes_safe") and not ships(which):
        pytest.skip("this interpreter ships no module of %s: nothing to bind" % which)
    result = run("fork_logging_held", which, held, script=FORK_CHILD)
    assert result == {"answered": True, "hung": False}, result


@pytest.mark.skipif(not hasattr(os, "fork") or sys.version_info < (3,),
                    reason="needs os.fork and importlib's module locks (2.7 has one lock)")
@pytest.mark.parametrize("which", TRIED + ["ctypes_safe"])
def test_a_child_forked_while_a_thread_is_inside_a_module_lock_never_hangs(which):
    # Trial 4c: another thread inside a module lock's acquire() (its own mutex held, the
    # lock owned by no thread) at fork. Seen on PyPy in trial 4 (CI at b4c2663): the child
    # waited for ever on the mutex of a module lock its first patch() needed.
    if which not in ("urllib", "ctypes_safe") and not ships(which):
        pytest.skip("this interpreter ships no module of %s: nothing to bind" % which)
    result = run("fork_module_mutex", which, script=FORK_CHILD)
    assert result == {"answered": True, "hung": False}, result


@pytest.mark.skipif(not hasattr(os, "register_at_fork"), reason="needs os.register_at_fork")
def test_a_fork_waits_for_an_import_another_thread_has_half_done():
    # Trial 4d: on PyPy a child forked while another thread was inside ``import ssl``
    # waited for ever in its own (status() imports frameworks that import ssl): the
    # parent now finishes such imports before it forks (CI at 77e1153, pypy3).
    result = run("fork_half_import", "http_cookies_backport", script=FORK_CHILD)
    assert result == {"whole_in_child": True}, result


@pytest.mark.skipif(not hasattr(os, "register_at_fork"), reason="needs os.register_at_fork")
def test_a_fork_waits_for_an_import_before_its_module_exists():
    # Trial 4f: an import owns its module's lock before the module is in sys.modules,
    # while its spec is found and an extension's library is loaded; trial 4d's wait saw
    # sys.modules only. A child forked then inherits the loader half-way: on PyPy its
    # own import of that extension waited for ever (trial 4, CI at 03ced5c, pypy3).
    result = run("fork_module_lock_owned", "http_cookies_backport", script=FORK_CHILD)
    assert result == {"over_in_child": True}, result


@pytest.mark.skipif(not hasattr(os, "fork") or sys.version_info[0] == 2,
                    reason="needs os.fork; 2.7's own fork() waits for its one import lock, "
                    "whoever holds it, so there this deadlock is the interpreter's")
def test_a_fork_never_waits_for_an_import_that_waits_for_it():
    # Trial 4e: the wait of trial 4d is bounded: an import that waits for a lock the
    # forking thread holds would otherwise hold the fork for ever.
    result = run("fork_while_an_import_waits_for_this_thread", "http_cookies_backport",
                 script=FORK_CHILD)
    assert result == {"forked": True, "answered": True}, result


@pytest.mark.parametrize("how", ["del", "reload"])
def test_patch_reaches_a_reimported_stdlib_module(how):
    # Trial 5: before, patch() after a re-import did nothing, and unpatch() + patch()
    # installed a urlsplit returning the old module's SplitResult.
    result = run("reimport", how)
    assert result.pop("same_object") is (how == "reload")
    assert result == {"patch_fixes_new": True, "patch_result_class": True,
                      "patch_qs_fixed": True, "is_patched": True,
                      "unpatch_restores_new": True, "repatch_fixes_new": True,
                      "repatch_result_class": True}


#: The packages whose health checks a signal handler asks (issue 53): every one.
ASKED = ["urllib_parse_backport", "ctypes_safe"] + (
    [] if os.environ.get("BACKPORT_TEST_UNFIXED_STDLIB") == "1" else ENGINE_PACKAGES)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs signal.setitimer")
@pytest.mark.parametrize("which", ASKED)
def test_a_signal_handler_asking_the_health_checks_breaks_nothing(which):
    # Trial 6: a real SIGALRM every 0.5 ms whose handler calls is_patched(), status()
    # and is_vulnerable(), over 300 patch()/unpatch() cycles from the process's first
    # import (before: "release unlocked lock" within a few hundred cycles on 2.7, 3.8
    # and 3.13, and an ImportError from the handler's import of a module the
    # interrupted patch() was importing, on every interpreter).
    result = run("alarm", which, 300, script=SIGNAL_CHILD)
    assert result == {"failures": [], "answers": True, "lock_free": True,
                      "truthful": True}, result
