"""The CVE-2021-23336 attack query, against the backport and the host stdlib."""

import pytest
from stdlib_state import STDLIB, UNFIXED

from urllib_parse_backport import parse_qs, parse_qsl

ATTACK = "q=common_term&utm_content=s;q=malicious_term"
SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}


def test_backport_sees_only_the_cached_value():
    assert parse_qs(ATTACK) == SAFE
    assert parse_qsl(ATTACK) == [("q", "common_term"), ("utm_content", "s;q=malicious_term")]


@pytest.mark.skipif(not UNFIXED, reason="this stdlib has the bpo-42967 fix")
def test_unpatched_stdlib_sees_the_smuggled_value():
    # Proves the test above can fail: an unfixed stdlib (2.7.18, or a py3X-unfixed
    # environment) splits on ';'.
    smuggled = {"q": ["common_term", "malicious_term"], "utm_content": ["s"]}
    assert STDLIB.parse_qs(ATTACK) == smuggled


def test_semicolon_can_still_be_chosen_explicitly():
    assert parse_qs("a=1;a=2&b=3", separator=";") == {"a": ["1", "2&b=3"]}
