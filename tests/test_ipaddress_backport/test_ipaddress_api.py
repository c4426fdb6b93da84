"""``patch()`` and ``unpatch()`` by identity, the probe, and 2.7's nothing to fix.

``patch()`` binds the fix's classmethod as ``_BaseV6._ip_int_from_string``,
whose function has the stock one's name, docstring and qualified name;
``unpatch()`` puts the very classmethod object back. On 2.7, which ships no
``ipaddress``, ``patch()`` changes nothing and says why, and
``is_vulnerable()`` is False.
"""

import pytest

import ipaddress_backport
import ipaddress_helpers as helpers

needs_stdlib = pytest.mark.skipif(helpers.STDLIB is None, reason="2.7 ships no ipaddress")


def test_the_public_names():
    assert sorted(ipaddress_backport.__all__) == sorted([
        "patch", "unpatch", "is_patched", "is_vulnerable", "status", "PatchReport",
        "__version__"])


@pytest.mark.skipif(helpers.STDLIB is not None, reason="this interpreter ships ipaddress")
def test_nothing_to_fix_where_there_is_no_ipaddress():
    report = ipaddress_backport.patch(force=True)
    assert report.changed == [] and not ipaddress_backport.is_patched()
    assert [reason for _, reason in report.skipped] == ["not in this interpreter: nothing to fix"]
    assert ipaddress_backport.is_vulnerable() is False


@needs_stdlib
def test_patch_binds_the_fix_and_unpatch_puts_back_the_original():
    base = helpers.STDLIB._BaseV6
    lacks = ipaddress_backport.is_vulnerable()
    assert lacks is helpers.fix.needs_fix(helpers.STDLIB)
    report = ipaddress_backport.patch(force=True)
    assert report.changed == ["ipaddress._BaseV6._ip_int_from_string"]
    new = vars(base)["_ip_int_from_string"]
    assert isinstance(new, classmethod) and new is not helpers.STOCK
    for attribute in ("__name__", "__doc__", "__qualname__", "__module__"):
        assert getattr(new.__func__, attribute) == getattr(helpers.STOCK.__func__, attribute)
    assert ipaddress_backport.is_patched()
    assert ipaddress_backport.is_vulnerable() is lacks  # the interpreter's answer
    assert ipaddress_backport.status()["exposed"] is False
    ipaddress_backport.unpatch()
    assert vars(base)["_ip_int_from_string"] is helpers.STOCK
    assert not ipaddress_backport.is_patched()


@needs_stdlib
def test_every_ipv6_class_parses_through_the_fix(ipaddress_fixed):
    for name in ("IPv6Address", "IPv6Network", "IPv6Interface"):
        parser = getattr(ipaddress_fixed, name)._ip_int_from_string
        assert parser.__func__ is vars(ipaddress_fixed._BaseV6)["_ip_int_from_string"].__func__


@needs_stdlib
def test_the_probe_changes_nothing():
    before = dict(vars(helpers.STDLIB._BaseV6))
    helpers.fix.needs_fix(helpers.STDLIB)
    assert dict(vars(helpers.STDLIB._BaseV6)) == before


def test_typing_example_runs():
    __import__("typing_ipaddress_backport")
