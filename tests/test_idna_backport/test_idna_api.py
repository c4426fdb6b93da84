"""``patch()`` and ``unpatch()`` by identity, the probe, and the public names.

``patch()`` binds the fix's functions in ``encodings.idna`` (and in any
module holding the stock ``ToUnicode`` or ``nameprep`` under its own name),
each under the stock function's name and docstring; ``unpatch()`` puts the
very originals back. ``is_vulnerable()`` reads the stock module's
behaviour: True where either half of gh-98433 is missing (2.7-3.11, PyPy
3.9), False on 3.12+, and the same while patched.
"""

import sys
import types

import idna_backport
import idna_helpers as helpers


def test_the_public_names():
    assert sorted(idna_backport.__all__) == sorted([
        "patch", "unpatch", "is_patched", "is_vulnerable", "status", "PatchReport",
        "__version__"])


def test_patch_binds_the_fix_and_unpatch_puts_back_the_originals():
    module = helpers.module()
    lacks = idna_backport.is_vulnerable()
    expected = sorted(helpers.fix.replacements(module))  # read on the stock module
    report = idna_backport.patch()
    if not lacks:
        assert (report.changed, idna_backport.is_patched()) == ([], False)
        return
    changed = sorted(name.rpartition(".")[2] for name in report.changed)
    assert changed == expected
    for name in changed:
        assert vars(module)[name] is not helpers.STOCK[name]
        assert vars(module)[name].__name__ == name
    assert idna_backport.is_patched() and idna_backport.is_vulnerable()
    assert idna_backport.status()["exposed"] is False
    idna_backport.unpatch()
    for name in changed:
        assert vars(module)[name] is helpers.STOCK[name]
    assert not idna_backport.is_patched()


def test_is_vulnerable_reads_the_stock_behaviour():
    module = helpers.module()
    unbounded = helpers.outcome(helpers.STOCK["ToUnicode"], "a" * 1025)[0] == "ok"
    assert idna_backport.is_vulnerable() is (unbounded or
                                             helpers.fix._bidi_check_quadratic(module))
    assert idna_backport.status()["vulnerable"] is idna_backport.is_vulnerable()


def test_an_alias_in_another_module_is_rebound_and_put_back():
    alias = types.ModuleType("idna_alias_holder")
    alias.ToUnicode = helpers.STOCK["ToUnicode"]
    sys.modules[alias.__name__] = alias
    try:
        idna_backport.patch(force=True)
        assert alias.ToUnicode is helpers.module().ToUnicode
        assert alias.ToUnicode is not helpers.STOCK["ToUnicode"]
        idna_backport.unpatch()
        assert alias.ToUnicode is helpers.STOCK["ToUnicode"]
    finally:
        del sys.modules[alias.__name__]


def test_forced_on_a_fixed_module_changes_no_outcome():
    # patch(force=True) binds ToUnicode everywhere; where the stock function
    # bounds labels itself (3.12+), the long label still gets its exception.
    stock = helpers.outcome(helpers.STOCK["ToUnicode"], b"a" * 1025)
    idna_backport.patch(force=True)
    forced = helpers.outcome(helpers.module().ToUnicode, b"a" * 1025)
    if stock[0] == "error":
        assert forced == stock
    else:
        assert forced == ("error", "UnicodeError", "label way too long")


def test_the_probe_changes_nothing():
    module = helpers.module()
    before = dict(vars(module))
    helpers.fix.needs_fix(module)
    assert dict(vars(module)) == before


def test_typing_example_runs():
    __import__("typing_idna_backport")
