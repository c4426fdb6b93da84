"""gh-128840's own test, its other IPv6 split tests, and the issue's 12 MB input.

Mirrors CPython's ``test_ipaddress.AddressTestCase_v6``:
``test_bad_address_split_v6_too_long`` (added by gh-128840) for each
factory that parses an IPv6 string, with ``assertCleanError``'s rule that
the error shows no other exception as its context; then the cases of
``test_bad_address_split_v6_too_many_colons``, ``..._too_many_parts``,
``..._repeated_double_colon`` and ``test_bad_v4_part_in`` (all under 46
characters): the fix bound, each error is the stock one. Last, the memory
a string costs to refuse, at n and 4n characters (``tracemalloc``).
"""

import re

import pytest

import ipaddress_helpers as helpers

pytestmark = pytest.mark.skipif(helpers.STDLIB is None, reason="2.7 ships no ipaddress")

LONG_ADDR = ("0:" * 10000) + "0"
LONG_CASES = [LONG_ADDR, LONG_ADDR + "%zoneid", LONG_ADDR + ":255.255.255.255",
              LONG_ADDR + ":ffff:255.255.255.255"]
FACTORIES = ["IPv6Address", "IPv6Network", "IPv6Interface"]


@pytest.mark.parametrize("factory", FACTORIES)
@pytest.mark.parametrize("addr", LONG_CASES, ids=["plain", "zone", "ipv4", "ffff-ipv4"])
def test_cpython_bad_address_split_v6_too_long(ipaddress_fixed, factory, addr):
    pattern = r"At most 45 characters expected in '%s" % re.escape(addr[:45])
    with pytest.raises(ipaddress_fixed.AddressValueError, match=pattern) as caught:
        getattr(ipaddress_fixed, factory)(addr)
    error = caught.value
    assert error.__context__ is None or error.__suppress_context__


@pytest.mark.parametrize("addr", LONG_CASES + ["1" * 46, "1" * 100, "1" * 101])
def test_the_message_is_upstreams(ipaddress_fixed, addr):
    # Over 100 characters: the first and last 45 around "(N chars elided)".
    parsed = addr.partition("%")[0] if "%" in addr and _has_scope() else addr
    with pytest.raises(ipaddress_fixed.AddressValueError) as caught:
        ipaddress_fixed.IPv6Address(addr)
    assert str(caught.value) == helpers.upstream_message(parsed)


def _has_scope():
    """3.9+ splits a scope id off before parsing (bpo-34788); 3.6-3.8 parse it whole."""
    return hasattr(helpers.STDLIB.IPv6Address, "scope_id")


#: CPython's cases of 45 characters or fewer: the fix must leave their errors alone.
SHORT_CASES = [
    "9:8:7:6:5:4:3::2:1", "10:9:8:7:6:5:4:3:2:1", "::8:7:6:5:4:3:2:1", "8:7:6:5:4:3:2:1::",
    "10:9:8:7:6:5:4:3:42.42.42.42", "3ffe:0:0:0:0:0:0:0:1", "9:8:7:6:5:4:3:2:1",
    "7:6:5:4:3:2:1", "9:8:7:6:5:4:3:42.42.42.42", "7:6:5:4:3:42.42.42.42",
    "1:2:3:4::5:6:7:8", "3ffe::1::1", "1::2::3::4:5", "2001::db:::1", ":::",
    "3ffe::1.net", "3ffe::127.0.1", "::1.2.3.4.5", "3ffe::1.1.1.net", ":", "FEDC:9878",
    "", "1.2.3.4::", "02001:db8::", "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255",
]


@pytest.mark.parametrize("addr", SHORT_CASES)
def test_cpython_split_cases_keep_the_stock_errors(addr):
    stock = helpers.outcome(helpers.STDLIB.IPv6Address, addr)
    with helpers.bound():
        assert helpers.outcome(helpers.STDLIB.IPv6Address, addr) == stock
    assert (stock[0] == "ok") is (addr == SHORT_CASES[-1])


def test_the_longest_address_parses_and_one_more_character_is_refused(ipaddress_fixed):
    longest = SHORT_CASES[-1]
    assert len(longest) == 45
    assert str(ipaddress_fixed.IPv6Address(longest)) == "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"
    with pytest.raises(ipaddress_fixed.AddressValueError, match="At most 45 characters"):
        ipaddress_fixed.IPv6Address(longest + "5")


def _colons(n):
    return "ab:" * n


@pytest.mark.skipif(helpers.peak_memory(len, "") is None, reason="no tracemalloc (PyPy)")
def test_refusing_costs_the_same_memory_at_any_length():
    with helpers.bound():
        small = helpers.peak_memory(helpers.STDLIB.IPv6Address, _colons(25000))
        large = helpers.peak_memory(helpers.STDLIB.IPv6Address, _colons(100000))
    assert large <= small * 1.1 + 1024 and large < 10000


@pytest.mark.skipif(helpers.peak_memory(len, "") is None, reason="no tracemalloc (PyPy)")
def test_the_measure_sees_the_stock_parser_grow():
    small = helpers.peak_memory(helpers.STDLIB.IPv6Address, _colons(25000))
    large = helpers.peak_memory(helpers.STDLIB.IPv6Address, _colons(100000))
    if helpers.fix.needs_fix(helpers.STDLIB):
        assert large > small * 3 and large > 100000 * 20
    else:
        assert large <= small * 1.1 + 1024
