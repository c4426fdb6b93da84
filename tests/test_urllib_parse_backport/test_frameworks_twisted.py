"""Twisted Web adapter: ``patch(frameworks=True)`` and ``twisted.web.http.parse_qs``.

Twisted splits query strings and urlencoded bodies into ``Request.args`` with
its own bytes parser, on ``&`` and ``;``, whatever the stdlib does. Each
scenario runs in a fresh interpreter: a ``Site`` protocol on a
``StringTransport`` is fed raw HTTP bytes (no reactor), with Twisted imported
before ``patch(frameworks=True)``, after it, or no adapter at all; then
``unpatch()`` must give back the exact original. Twisted 24+ keeps
``twisted.web.http`` behind a module proxy in ``sys.modules``.
"""

import types

import pytest

from dependencies import importorskip
from fresh_interpreter import run_scenario_once

from internals import _frameworks


SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
TARGET = "twisted.web.http.parse_qs"


def run_app(order, separator=None):
    """What the resource saw in *order*, run once per session."""
    importorskip("twisted.web")
    environ = {} if separator is None else {"PYTHON_URLLIB_QS_SEPARATOR": separator}
    return run_scenario_once("twisted_adapter", [order], **environ)


@pytest.mark.parametrize("request_kind", ["get", "post"])
def test_without_the_adapter_twisted_sees_the_smuggled_value(request_kind):
    seen = run_app("no-adapter")["seen"][request_kind]
    assert seen["args"] == {"q": ["common_term", "malicious_term"], "utm_content": ["s"]}
    assert seen["bytes_only"] is True


@pytest.mark.parametrize("request_kind", ["get", "post"])
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_with_the_adapter_twisted_sees_the_cached_value(order, request_kind):
    seen = run_app(order)["seen"][request_kind]
    assert seen["args"] == SAFE
    assert seen["bytes_only"] is True  # Twisted's own types: bytes keys, lists of bytes


@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_report_names_twisted_parse_qs(order):
    changed = run_app(order)["changed"]
    assert TARGET in changed
    assert TARGET + " (in place)" in changed


@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_unpatch_restores_the_original_parser(order):
    result = run_app(order)
    assert result["restored"] == dict((check, True) for check in result["restored"])
    assert len(result["restored"]) == (3 if order == "framework-first" else 2)
    for request_kind in ("get", "post"):
        assert "malicious_term" in result["after_unpatch"][request_kind]["args"]["q"]


@pytest.mark.parametrize("request_kind", ["get", "post"])
def test_legacy_policy_keeps_splitting_on_both(request_kind):
    # PYTHON_URLLIB_QS_SEPARATOR=legacy: the operator asks for 2.7.18's behaviour.
    result = run_app("framework-first", separator="legacy")
    assert TARGET in result["changed"]
    assert result["seen"][request_kind]["args"] == {
        "q": ["common_term", "malicious_term"], "utm_content": ["s"]}


# --------------------------------------------------------------------------
# The adapter's verdict, on stand-in modules: detect by behaviour, never blindly.
# --------------------------------------------------------------------------

def _adapter():
    for adapter in _frameworks.ADAPTERS:
        if adapter.module == "twisted.web.http" and adapter.attribute == "parse_qs":
            return adapter
    raise LookupError(TARGET)


def _assess(parser):
    module = types.ModuleType("twisted.web.http")
    if parser is not None:
        module.parse_qs = parser
    return _adapter().assess(module, {})


def _parse_qs(separators):
    def parse_qs(qs, keep_blank_values=0, strict_parsing=0):
        for separator in separators[1:]:
            qs = qs.replace(separator, separators[0])
        args = {}
        for field in qs.split(separators[0]):
            key, value = field.split(b"=", 1)
            args.setdefault(key, []).append(value)
        return args
    return parse_qs


def test_assess_patches_a_parser_that_splits_on_semicolons():
    assert _assess(_parse_qs([b"&", b";"])) == (True, "splits on ';' (CVE-2021-23336)")


def test_assess_leaves_an_ampersand_only_parser_alone():
    assert _assess(_parse_qs([b"&"])) == (False, "already splits on '&' only")


def test_assess_leaves_a_missing_parser_alone():
    assert _assess(None) == (False, "twisted.web.http.parse_qs not found: unknown version")
