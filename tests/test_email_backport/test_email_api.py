"""patch()/unpatch()/is_patched()/status(): the stdlib's names replaced and put back.

Object identity before, during and after; aliases made with ``from
email.message import _parseparam`` reached both ways; a fixed interpreter
left alone unless forced.
"""

import sys
import types

import email.generator
import email.message
import email_backport
from email_helpers import PY2

PLACES = [(email.message, "_parseparam", "email.message._parseparam"),
          (email.generator.Generator, "_write_headers",
           "email.generator.Generator._write_headers")]
if not PY2:
    PLACES.append((email.generator.BytesGenerator, "_write_headers",
                   "email.generator.BytesGenerator._write_headers"))


def _held(holder, name):
    return vars(holder)[name]


def test_patch_replaces_and_unpatch_restores_the_same_objects():
    originals = [_held(holder, name) for holder, name, _ in PLACES]
    report = email_backport.patch(force=True)
    assert isinstance(report, email_backport.PatchReport) and report.forced
    for (holder, name, label), original in zip(PLACES, originals):
        assert label in report.changed
        new = _held(holder, name)
        assert new is not original
        assert new.__name__ == original.__name__ and new.__doc__ == original.__doc__
        if not PY2:
            assert new.__qualname__ == original.__qualname__
    assert email_backport.is_patched()
    assert email_backport.patch(force=True) is report  # idempotent (2.7: gh-144125 binds
    # nothing there, and counts as in effect)
    undone = email_backport.unpatch()
    for (holder, name, label), original in zip(PLACES, originals):
        assert label in undone.changed and _held(holder, name) is original
    assert not email_backport.is_patched()
    assert not email_backport.unpatch().changed  # nothing left to undo


def test_patch_binds_only_what_this_interpreter_lacks():
    fixes = email_backport.status()["fixes"]
    report = email_backport.patch()
    assert email_backport.patch() is report  # idempotent
    for cve, fix in sorted(fixes.items()):
        labels = [label for label in report.changed if label in fix["target"]]
        assert bool(labels) == fix["lacks"], (cve, fix, report.changed)
    status = email_backport.status()
    assert not status["exposed"]
    assert all(not each["exposed"] for each in status["fixes"].values())


def test_vulnerable_is_about_the_interpreter():
    before = email_backport.is_vulnerable()
    email_backport.patch()
    assert email_backport.is_vulnerable() == before
    lacks = [fix["lacks"] for fix in email_backport.status()["fixes"].values()]
    assert before == any(lacks)


def _module_with_alias(name):
    alias = types.ModuleType(name)
    exec("from email.message import _parseparam", alias.__dict__)
    sys.modules[name] = alias
    return alias


def test_aliases_of_parseparam_are_reached_both_ways():
    original = email.message._parseparam
    before = _module_with_alias("email_alias_before")
    try:
        report = email_backport.patch(force=True)
        assert "email_alias_before._parseparam" in report.changed
        fix = email.message._parseparam
        assert before._parseparam is fix
        during = _module_with_alias("email_alias_during")  # bound while patched
        assert during._parseparam is fix
        undone = email_backport.unpatch()
        assert before._parseparam is original and during._parseparam is original
        assert "email_alias_during._parseparam" in undone.changed
    finally:
        sys.modules.pop("email_alias_before", None)
        sys.modules.pop("email_alias_during", None)


def test_a_binding_rebound_by_someone_else_is_left_alone():
    original = email.message._parseparam
    email_backport.patch(force=True)
    mine = lambda s: []  # noqa: E731 - an application's own replacement
    email.message._parseparam = mine
    try:
        report = email_backport.unpatch()
        assert "email.message._parseparam" in [label for label, _ in report.skipped]
        assert email.message._parseparam is mine
    finally:
        email.message._parseparam = original
