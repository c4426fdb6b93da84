"""Honest input gives what the stock parser gives; only length is refused anew.

Strings of up to 45 characters built from what IPv6 text is made of (hex
digits, ``:``, ``.``, a scope ``%``, a prefix ``/``, and a few characters
that are none of these) give, with the fix bound, exactly the stock result
or the stock exception and message, through every public parser. Valid
addresses, written exploded, compressed and with an IPv4 tail, parse to
the same address. A string over 45 characters is refused with gh-128840's
``AddressValueError`` and message, whatever it holds.
"""

import pytest
from hypothesis import given, settings, strategies as st

import ipaddress_helpers as helpers
from budget import examples

pytestmark = pytest.mark.skipif(helpers.STDLIB is None, reason="2.7 ships no ipaddress")

ALPHABET = u"0123456789abcdefABCDEF::::..%/gx "
SHORT = st.text(alphabet=ALPHABET, max_size=45)
LONG = st.text(alphabet=ALPHABET, min_size=46, max_size=400)
PARSERS = ["IPv6Address", "IPv6Network", "IPv6Interface", "ip_address", "ip_network",
           "ip_interface"]


def _parse(name, text):
    module = helpers.STDLIB
    if name == "IPv6Network":
        return module.IPv6Network(text, strict=False)
    if name == "ip_network":
        return module.ip_network(text, strict=False)
    return getattr(module, name)(text)


def _outcomes(text):
    return [helpers.outcome(_parse, name, text) for name in PARSERS]


@settings(max_examples=examples(400), deadline=None)
@given(SHORT)
def test_strings_of_45_characters_or_fewer_as_the_stock_parser(text):
    stock = _outcomes(text)
    with helpers.bound():
        assert _outcomes(text) == stock


@st.composite
def _addresses(draw):
    value = draw(st.integers(min_value=0, max_value=2 ** 128 - 1))
    address = helpers.STDLIB.IPv6Address(value)
    form = draw(st.sampled_from(["compressed", "exploded", "ipv4"]))
    if form == "ipv4":
        return "%s:%s" % (address.exploded[:29], helpers.STDLIB.IPv4Address(value & 0xFFFFFFFF))
    return getattr(address, form)


@settings(max_examples=examples(300), deadline=None)
@given(_addresses())
def test_valid_addresses_parse_to_the_same_address(text):
    stock = _outcomes(text)
    with helpers.bound():
        assert _outcomes(text) == stock
    assert stock[0][0] == "ok"


@settings(max_examples=examples(200), deadline=None)
@given(LONG)
def test_strings_over_45_characters_are_refused_with_upstreams_message(text):
    module = helpers.STDLIB
    with helpers.bound():
        result = helpers.outcome(module._BaseV6._ip_int_from_string, text)
    assert result == ("error", "AddressValueError", helpers.upstream_message(text))
