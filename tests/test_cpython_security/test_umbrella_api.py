"""``cpython_security.patch()`` and ``exposed()``: the umbrella switch and the check, in code.

Each case compares two fresh interpreters of the test environment: one that
calls the API, one started with ``CPYTHON_SECURITY_PATCH=1`` (or asked with
``cpython-security-check``). The modules the fixes are for are imported
half before the call and half after it, so both "applied now to what is
loaded" and "applied on import to the rest" are compared.
"""

import pytest

import cpython_security
from umbrella_helpers import MODULES, check_exposed, child_state, imports

BEFORE, AFTER = MODULES[::2], MODULES[1::2]

#: The skip lists tried: none, one fix, one whole package.
SKIPS = [None, "CVE-2025-0938", "email_backport"]


def _environ(skip, **more):
    return dict(more, **({"CPYTHON_SECURITY_SKIP": skip} if skip else {}))


def _ids(records):
    return [record["fix"] for record in records]


@pytest.mark.parametrize("skip", SKIPS)
def test_patch_leaves_in_force_what_the_switch_does(skip):
    by_call = child_state(imports(BEFORE) + "cpython_security.patch()\n" + imports(AFTER),
                          **_environ(skip))
    by_switch = child_state(imports(BEFORE) + imports(AFTER),
                            **_environ(skip, CPYTHON_SECURITY_PATCH="1"))
    assert by_call["state"] == by_switch["state"]
    assert by_call["exposed"] == by_switch["exposed"]


def test_patch_twice_changes_nothing_more():
    once = child_state(imports(MODULES) + "cpython_security.patch()\n")
    twice = child_state(imports(MODULES) + "cpython_security.patch()\n"
                        "cpython_security.patch()\n")
    assert once == twice


def test_a_package_variable_decides_for_its_package_as_under_the_switch():
    # URLLIB_PARSE_BACKPORT_PATCH=0 keeps the umbrella off that package, in code too.
    by_call = child_state(imports(MODULES) + "cpython_security.patch()\n",
                          URLLIB_PARSE_BACKPORT_PATCH="0")
    by_switch = child_state(imports(MODULES), URLLIB_PARSE_BACKPORT_PATCH="0",
                            CPYTHON_SECURITY_PATCH="1")
    assert by_call["state"] == by_switch["state"]
    assert not any(patched for package, patched, _ in by_call["state"].values()
                   if package == "urllib_parse_backport")


@pytest.mark.parametrize("skip", SKIPS)
def test_exposed_is_the_checks_verdict_unswitched(skip):
    assert _ids(child_state(imports(MODULES), **_environ(skip))["exposed"]) == \
        check_exposed(**_environ(skip))


@pytest.mark.parametrize("skip", SKIPS)
def test_exposed_is_the_checks_verdict_under_the_switch(skip):
    environ = _environ(skip, CPYTHON_SECURITY_PATCH="1")
    assert _ids(child_state(imports(MODULES), **environ)["exposed"]) == check_exposed(**environ)


@pytest.mark.parametrize("skip", SKIPS)
def test_exposed_after_patch_is_the_checks_verdict_under_the_switch(skip):
    found = child_state(imports(MODULES) + "cpython_security.patch()\n", **_environ(skip))
    assert _ids(found["exposed"]) == check_exposed(**_environ(skip, CPYTHON_SECURITY_PATCH="1"))


@pytest.fixture
def copies_forgotten():
    """``exposed()`` imports the installed copies of stdlib modules (python-future's), as
    the check does: they leave ``sys.modules`` with the test, so that later tests read
    the stdlib modules' states alone."""
    import sys
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("future."):
            del sys.modules[name]


def test_each_record_names_its_fix_package_module_and_issue(copies_forgotten):
    from internals import shared_registry
    rows = dict((fix.cve, fix) for fix in shared_registry.FIXES)
    records = cpython_security.exposed()
    for record in records:
        row = rows[record.fix]
        assert (record.package, record.issue) == (row.package, row.issue)
        assert record.module in [row.module] + list(row.probes)
        assert record.as_dict() == {"fix": record.fix, "package": record.package,
                                    "module": record.module, "issue": record.issue}
    assert [record.fix for record in records] == [
        fix.cve for fix in shared_registry.FIXES if fix.cve in set(r.fix for r in records)]


def test_the_umbrella_package_is_the_installed_distributions():
    import idna_backport
    assert "site-packages" in cpython_security.__file__
    assert cpython_security.__version__ == idna_backport.__version__
