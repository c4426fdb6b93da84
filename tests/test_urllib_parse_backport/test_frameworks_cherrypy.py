"""CherryPy adapter: ``patch(frameworks=True)`` and CherryPy's own parsers.

CherryPy splits query strings (``cherrypy.lib.httputil._parse_qs``) and
urlencoded bodies (``cherrypy._cpreqbody.process_urlencoded``) on ``&`` and
``;`` itself, whatever the stdlib does. Each scenario mounts an app with
``cherrypy.tree.mount`` and calls it as a WSGI app in a fresh interpreter
(no server): CherryPy imported before ``patch(frameworks=True)``, after it,
or no adapter at all; then ``unpatch()`` must give back the exact originals.
"""

import types

import pytest

from dependencies import importorskip
from fresh_interpreter import run_scenario_once

from internals import _frameworks


SAFE = {"q": "common_term", "utm_content": "s;q=malicious_term"}
TARGETS = ["cherrypy.lib.httputil._parse_qs", "cherrypy._cpreqbody.process_urlencoded"]


def run_app(order, separator=None):
    """What the app saw in *order*, run once per session (CherryPy is slow to import)."""
    importorskip("cherrypy")
    environ = {} if separator is None else {"PYTHON_URLLIB_QS_SEPARATOR": separator}
    return run_scenario_once("cherrypy_adapter", [order], **environ)


def q_values(seen):
    q = seen["params"]["q"]
    return q if isinstance(q, list) else [q]


@pytest.mark.parametrize("request_kind", ["get", "post"])
def test_without_the_adapter_cherrypy_sees_the_smuggled_value(request_kind):
    seen = run_app("no-adapter")["seen"][request_kind]
    assert q_values(seen) == ["common_term", "malicious_term"]
    assert seen["params"]["utm_content"] == "s"
    assert seen["kinds"] == {"q": "list", "utm_content": "text"}


@pytest.mark.parametrize("request_kind", ["get", "post"])
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_with_the_adapter_cherrypy_sees_the_cached_value(order, request_kind):
    seen = run_app(order)["seen"][request_kind]
    assert seen["params"] == SAFE
    # One value: CherryPy's own str (not a one-item list), as for any single field.
    assert seen["kinds"] == {"q": "text", "utm_content": "text"}


@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_report_names_both_cherrypy_parsers(order):
    changed = run_app(order)["changed"]
    for target in TARGETS:
        assert target in changed
        assert target + " (in place)" in changed


@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_unpatch_restores_the_original_parsers(order):
    result = run_app(order)
    assert result["restored"] == dict((check, True) for check in result["restored"])
    assert len(result["restored"]) == (9 if order == "framework-first" else 5)
    for request_kind in ("get", "post"):
        assert "malicious_term" in q_values(result["after_unpatch"][request_kind])


@pytest.mark.parametrize("request_kind", ["get", "post"])
def test_legacy_policy_keeps_splitting_on_both(request_kind):
    # PYTHON_URLLIB_QS_SEPARATOR=legacy: the operator asks for 2.7.18's behaviour.
    result = run_app("framework-first", separator="legacy")
    assert set(TARGETS) <= set(result["changed"])
    seen = result["seen"][request_kind]
    assert q_values(seen) == ["common_term", "malicious_term"]
    assert seen["params"]["utm_content"] == "s"


# --------------------------------------------------------------------------
# The adapters' verdicts, on stand-in modules: detect by behaviour, never blindly.
# --------------------------------------------------------------------------

def _adapter(module, attribute):
    for adapter in _frameworks.ADAPTERS:
        if adapter.module == module and adapter.attribute == attribute:
            return adapter
    raise LookupError(module + "." + attribute)


def _assess(module_name, attribute, parser):
    module = types.ModuleType(module_name)
    if parser is not None:
        setattr(module, attribute, parser)
    return _adapter(module_name, attribute).assess(module, {})


def _parse_qs_on_amp(qs, keep_blank_values=0, strict_parsing=0, encoding="utf-8"):
    return dict(field.split("=", 1) for field in qs.split("&"))


def _process_urlencoded(separators):
    def process_urlencoded(entity):
        body = entity.fp.read()
        for separator in separators[1:]:
            body = body.replace(separator, separators[0])
        for field in body.split(separators[0]):
            key, value = field.split(b"=", 1)
            entity.params[key.decode("ascii")] = value.decode("ascii")
    return process_urlencoded


def test_assess_leaves_an_ampersand_only_query_parser_alone():
    assert _assess("cherrypy.lib.httputil", "_parse_qs", _parse_qs_on_amp) == (
        False, "already splits on '&' only")


def test_assess_leaves_a_missing_query_parser_alone():
    assert _assess("cherrypy.lib.httputil", "_parse_qs", None) == (
        False, "cherrypy.lib.httputil._parse_qs not found: unknown version")


def test_assess_patches_a_body_processor_that_splits_on_semicolons():
    assert _assess("cherrypy._cpreqbody", "process_urlencoded",
                   _process_urlencoded([b"&", b";"])) == (
        True, "splits on ';' (CVE-2021-23336)")


def test_assess_leaves_an_ampersand_only_body_processor_alone():
    assert _assess("cherrypy._cpreqbody", "process_urlencoded",
                   _process_urlencoded([b"&"])) == (False, "already splits on '&' only")


def test_assess_leaves_a_missing_body_processor_alone():
    assert _assess("cherrypy._cpreqbody", "process_urlencoded", None) == (
        False, "cherrypy._cpreqbody.process_urlencoded not found: unknown version")
