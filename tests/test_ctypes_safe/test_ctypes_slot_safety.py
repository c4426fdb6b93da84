"""Slot mode behaves like the C repr it replaces: signals, shutdown, subinterpreters, fork(),
the recursion limit, another tool's ``__repr__``, and a ``patch()`` stopped half-way.

Each scenario runs in a fresh interpreter (ctypes_slot_child.py, beside this file), killed after a
time bound, in slot mode: what ``patch()`` picks on 2.7.18 (the one interpreter where
it matters) and what ``patch(force=True)`` picks on 3.x.
"""

import os
import re

import pytest

import ctypes_helpers as helpers

SLOT_CHILD = "ctypes_slot_child.py"
FIXED_1_5 = "<cparam 'd' (1.5)>"
NOT_MAIN = ("slot check failed: not the main interpreter: CArgObject is shared by every "
            "interpreter of the process (up to 3.12), and a __repr__ installed from this one "
            "would outlive it")


def run(*args):
    return helpers.child_json(args, script=SLOT_CHILD, timeout=120)


def test_a_signal_handlers_exception_passes_through_repr():
    # An interval timer's handler raises 200 times while repr() runs in a loop: each
    # exception reaches the loop, and every text repr() returned is the right one.
    result = run("signals", 200)
    assert result["raised"] == 200
    assert result["caught"] == result["raised"] and result["bad"] == 0, result


def test_repr_works_once_module_globals_are_cleared():
    # As late in shutdown: every global of ctypes_safe's and ctypes' modules, and every
    # builtin, is None while repr() runs.
    result = run("cleared_globals")
    assert result["modules"] >= 10 and result["errors"] == []
    assert result["texts"] == ["<cparam 'd' (1e+300)>", FIXED_1_5, "<cparam 'i' (7)>",
                               "<cparam 'c' ('a')>"]


def test_repr_in_a_del_at_interpreter_exit():
    code, out, err = helpers.child(["late_del"], script=SLOT_CHILD, timeout=120)
    assert code == 0, err
    assert "late repr: <cparam 'd' (1e+300)>" in out.splitlines(), (out, err)
    assert "Error" not in err and "ignored" not in err, err


def _has_run_in_subinterp():
    try:
        import _testcapi
    except ImportError:
        return False
    return hasattr(_testcapi, "run_in_subinterp")


@pytest.mark.skipif(not _has_run_in_subinterp(), reason="needs _testcapi.run_in_subinterp")
def test_slot_mode_is_never_installed_from_a_subinterpreter():
    # mod_wsgi runs applications in subinterpreters: patch() there uses converter mode,
    # and once that interpreter has ended, this one's repr() and patch() work as before.
    result = run("subinterpreter")
    assert result["sub_mode"] == "converter"
    assert result["sub_skipped"] == [["_ctypes.CArgObject.tp_repr", NOT_MAIN]]
    assert result["texts"][1] == "<cparam 'i' (7)>"
    assert result["texts"][0] == (FIXED_1_5 if helpers.FIXED else "<cparam 'd' (1.500000)>")
    assert result["mode"] == "slot" and result["patched_text"] == "<cparam 'd' (1e+300)>"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_forked_while_another_thread_holds_the_lock_does_not_hang():
    # A health check stopped inside status(). Each child gets 5 s to answer.
    result = run("fork", 3)
    assert result == {"answered": 3, "hung": 0, "children": 3}


def test_repr_near_the_recursion_limit_prints_the_text_or_raises():
    # Deepest frame first. The stock repr needs no Python frame; the patched one needs
    # its own (three more levels through 2.7's slot_tp_repr, one more for the float's repr
    # there): in those deepest frames it raises RecursionError, and above them it prints
    # the fixed text, never a fallback.
    stock = run("recursion", "stock")["outcomes"]
    patched = run("recursion", "slot")["outcomes"]
    assert len(patched) == len(stock) == 30
    failing = patched.count("RecursionError")
    assert patched == ["RecursionError"] * failing + [FIXED_1_5] * (30 - failing)
    assert 0 <= failing - stock.count("RecursionError") <= (4 if helpers.PY2 else 1)
    for text in stock:  # the stock repr is the C one: the text or RecursionError too
        assert text == "RecursionError" or re.match(r"^<cparam 'd' \(1\.5(00000)?\)>$", text)


def test_unpatch_leaves_slot_and_dict_alone_under_another_tools_repr():
    # Another tool's __repr__ also puts slot_tp_repr in tp_repr. Writing the stock C repr
    # back under it would bring the overflow back (2.7.18 dies on 1e300).
    result = run("another_tool")
    assert result["slot_left"] and result["theirs_left"] and not result["patched"]
    assert result["texts"] == ["<theirs>", "<theirs>"]
    assert result["changed"] == []
    assert [name for name, _ in result["skipped"]] == ["_ctypes.CArgObject.tp_repr",
                                                       "_ctypes.CArgObject.__repr__"]


@pytest.mark.parametrize("kind", ["KeyboardInterrupt", "MemoryError"])
def test_patch_stopped_at_any_line_completes_or_changes_nothing(kind):
    # The exception is raised at the 1st, 2nd, ... line ctypes_safe runs in patch(), until
    # one patch() runs to its end; after each, the process is patched as a whole (slot or
    # converter mode, which unpatch() then removes exactly) or exactly as before.
    result = run("interrupted", kind)
    assert result["failures"] == []
    assert result["lines"] > 50
    outcomes = set(tuple(outcome) for outcome in result["outcomes"])
    assert ("raised", "None") in outcomes and ("completed", "slot") in outcomes
