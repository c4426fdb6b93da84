"""Bottle adapter: ``bottle._parse_qsl`` split on ``[&;]`` until 0.12.19.

Bottle 0.12.18 is pinned where it runs (2.7, 3.6-3.10; it imports
``inspect.getargspec``, gone in 3.11); fixed releases elsewhere (0.12.25 on
3.11-3.12, 0.13.2 on 3.13, where ``cgi`` is gone), to see the adapter leave
them alone. Requests go
through a real ``bottle.Bottle`` app called as a WSGI app, each scenario in a
fresh interpreter: no adapter, Bottle imported before or after ``patch(frameworks=True)``.
"""


import pytest

from dependencies import importorskip
from fresh_interpreter import run_scenario

bottle = importorskip("bottle")

VULNERABLE = tuple(int(part) for part in bottle.__version__.split(".")[:3]) < (0, 12, 19)


SAFE = {"q": ["common_term"], "utm_content": "s;q=malicious_term"}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": "s"}


def run_app(order, **environ):
    return run_scenario("bottle_adapter", [order], **environ)


vulnerable_only = pytest.mark.skipif(not VULNERABLE, reason="Bottle >= 0.12.19 is fixed")
fixed_only = pytest.mark.skipif(VULNERABLE, reason="Bottle <= 0.12.18 splits on ';'")


@vulnerable_only
def test_without_the_adapter_bottle_sees_the_smuggled_value():
    seen = run_app("no-adapter")["seen"]
    assert seen == {"query": SMUGGLED, "body": SMUGGLED}


@vulnerable_only
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_with_the_adapter_bottle_sees_the_cached_value(order):
    result = run_app(order)
    assert result["seen"] == {"query": SAFE, "body": SAFE}
    assert "bottle._parse_qsl" in result["changed"]
    assert "bottle._parse_qsl (in place)" in result["changed"]


@vulnerable_only
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_unpatch_restores_the_original_parser(order):
    result = run_app(order)
    assert result["identical"] is True
    assert result["after_unpatch"] == {"query": SMUGGLED, "body": SMUGGLED}


@vulnerable_only
def test_legacy_policy_keeps_the_split_on_both():
    result = run_app("framework-first", PYTHON_URLLIB_QS_SEPARATOR="legacy")
    assert result["seen"] == {"query": SMUGGLED, "body": SMUGGLED}


@fixed_only
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_a_fixed_bottle_is_left_alone_and_reported(order):
    result = run_app(order)
    assert result["skipped"]["bottle"] == "already splits on '&' only"
    assert not [name for name in result["changed"] if name.startswith("bottle")]
    assert result["seen"] == {"query": SAFE, "body": SAFE}
