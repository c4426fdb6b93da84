"""Framework adapters: ``patch(frameworks=True)`` fixes parsers no stdlib patch reaches.

WebOb 1.8.x on 3.x parses query strings itself (``webob.compat.parse_qsl_text``
splits on ``[&;]``), so a fixed stdlib does not protect ``request.GET``
(WebOb, Pyramid, webapp2). Each scenario runs in a fresh interpreter: WebOb
imported before ``patch(frameworks=True)``, after it, or no adapter at all;
then ``unpatch()`` must give back the exact original objects.
"""

import os
import sys
import types

import pytest

from dependencies import importorskip
from fresh_interpreter import ATTACK, run_json, run_scenario

from internals import _frameworks, _policy, _rewrite, _surgery, _targets

PY2 = sys.version_info[0] == 2
#: The documented reason for an adapter whose framework is not imported yet.
WAITING = "not imported yet: patched when imported"


SAFE = {"q": "common_term", "q_all": ["common_term"], "utm_content": "s;q=malicious_term"}


def run_app(order):
    importorskip("webob")
    return run_scenario("webob_adapter", [order])


def test_without_the_adapter_webob_sees_the_smuggled_value():
    # 2.7.18's urlparse and WebOb's own 3.x parser both split on ';'.
    seen = run_app("no-adapter")["seen"]
    assert "malicious_term" in seen["q_all"]
    assert seen["utm_content"] == "s"


@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_with_the_adapter_webob_sees_the_cached_value(order):
    result = run_app(order)
    assert result["seen"] == SAFE
    assert_webob_adapter_applied(result, order)


def assert_webob_adapter_applied(result, order):
    if PY2:
        # WebOb forwards to urlparse.parse_qsl, which patch() fixed first: the
        # adapter sees '&'-only behaviour and leaves WebOb's function alone.
        assert result["skipped"]["webob.compat"] == "already splits on '&' only"
    else:
        assert "webob.compat.parse_qsl_text" in result["changed"]
        # patch-first: fixed right after webob.compat's import (the post-import
        # hook), before webob.request bound the name: no alias to rebind.
        alias_rebound = "webob.request.parse_qsl_text" in result["changed"]
        assert alias_rebound is (order == "framework-first")


@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_unpatch_restores_the_original_parser(order):
    result = run_app(order)
    assert result["identical"] is True
    assert "malicious_term" in result["after_unpatch"]["q_all"]


# --------------------------------------------------------------------------
# The adapter's verdict, on stand-in modules: detect by behaviour, never blindly.
# --------------------------------------------------------------------------

def _splits_on_both(qs, encoding="utf-8"):
    for field in qs.replace(";", "&").split("&"):
        yield tuple(field.split("=", 1))


def _splits_on_amp(qs, encoding="utf-8"):
    for field in qs.split("&"):
        yield tuple(field.split("=", 1))


def _broken(qs, encoding="utf-8"):
    raise TypeError("unexpected")


def _assess(parser):
    adapter = _frameworks.ADAPTERS[0]
    module = types.ModuleType("webob.compat")
    if parser is not None:
        module.parse_qsl_text = parser
    return adapter.assess(module, {})


def test_assess_patches_a_parser_that_splits_on_semicolons():
    assert _assess(_splits_on_both) == (True, "splits on ';' (CVE-2021-23336)")


def test_assess_leaves_an_ampersand_only_parser_alone():
    assert _assess(_splits_on_amp) == (False, "already splits on '&' only")


def test_assess_leaves_a_missing_parser_alone():
    needs_fix, reason = _assess(None)
    assert not needs_fix
    assert reason.startswith("webob.compat.parse_qsl_text not found")


def test_assess_leaves_an_unrecognised_parser_alone():
    needs_fix, reason = _assess(_broken)
    assert not needs_fix
    assert reason.startswith("unrecognised parser: probe failed")


def test_adapters_are_never_forced():
    assert _frameworks.ADAPTERS
    assert not any(adapter.forceable for adapter in _frameworks.ADAPTERS)


# --------------------------------------------------------------------------
# The separator policy, as for the stdlib shim (PYTHON_URLLIB_QS_SEPARATOR).
# --------------------------------------------------------------------------

@pytest.fixture
def environment():
    yield _policy.read_environment
    _policy.read_environment()


def _fields(environ, qs):
    _policy.read_environment(environ)
    return list(_splits_on_both(_rewrite.separate_by_policy(qs)))


def test_default_separator_is_ampersand(environment):
    assert _fields({}, "a=1;b=2&c=3") == [("a", "1%3Bb=2"), ("c", "3")]


def test_legacy_splits_on_both(environment):
    assert _fields({"PYTHON_URLLIB_QS_SEPARATOR": "legacy"}, "a=1;b=2&c=3") == [
        ("a", "1"), ("b", "2"), ("c", "3")]


def test_semicolon_splits_on_semicolon_only(environment):
    assert _fields({"PYTHON_URLLIB_QS_SEPARATOR": ";"}, "a=1;b=2&c=3") == [
        ("a", "1"), ("b", "2%26c=3")]


def test_bad_value_raises_naming_the_variable(environment):
    with pytest.raises(ValueError) as info:
        _fields({"PYTHON_URLLIB_QS_SEPARATOR": "&&"}, "a=1")
    assert "PYTHON_URLLIB_QS_SEPARATOR" in str(info.value)


# --------------------------------------------------------------------------
# Pieces the real-framework tests reach only on some versions.
# --------------------------------------------------------------------------

def test_start_up_variable_frameworks_applies_the_adapters():
    # URLLIB_PARSE_BACKPORT_PATCH=frameworks: patch(frameworks=True) from the .pth line.
    importorskip("webob")
    code = ("import webob, json\n"
            "print(json.dumps(webob.Request.blank('/?' + %r).GET.getall('q')))" % ATTACK)
    assert run_json(code, quiet=True, URLLIB_PARSE_BACKPORT_PATCH="frameworks") == [
        "common_term"]


class _ModuleProxy(object):
    """Like Twisted's deprecation proxy: fakes ``__class__``, keeps the module in ``_module``."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        return getattr(self._module, name)


def test_module_proxies_are_unwrapped_to_the_real_namespace():
    module = types.ModuleType("stand_in")
    proxy = _ModuleProxy(module)
    assert isinstance(proxy, object) and proxy.__class__ is _ModuleProxy
    assert _surgery.module_namespace(proxy) is module.__dict__
    assert _surgery.module_namespace(module) is module.__dict__


def test_body_adapter_refuses_an_unknown_signature():
    def process_urlencoded(entity, charset):
        return None
    assert _frameworks._separate_body_by_policy(process_urlencoded, None) is None


def test_body_adapter_gives_the_entity_its_reader_back():
    seen = []

    def process_urlencoded(entity):
        seen.append(entity.fp.read())
        entity.params = {"read": True}

    entity = _frameworks._ProbeEntity(b"q=1&u=s;q=2")
    reader = entity.fp
    replacement = _frameworks._separate_body_by_policy(process_urlencoded, None)
    replacement(entity)
    assert seen == [b"q=1&u=s%3Bq=2"]
    assert entity.fp is reader and entity.params == {"read": True}


def test_frameworks_true_after_a_plain_patch_adds_the_adapters():
    # e.g. URLLIB_PARSE_BACKPORT_PATCH=1 at start-up, then the app asks for more.
    importorskip("webob")
    code = (
        "import json, webob, urllib_parse_backport as shim\n"
        "first = shim.patch()\n"
        "second = shim.patch(frameworks=True)\n"
        "third = shim.patch(frameworks=True)\n"
        "q = webob.Request.blank('/?' + %r).GET.getall('q')\n"
        "shim.unpatch()\n"
        "print(json.dumps({'same': first is second is third, 'q': q,\n"
        "                  'changed': second.changed, 'skipped': dict(second.skipped),\n"
        "                  'after': webob.Request.blank('/?' + %r).GET.getall('q')}))\n"
        % (ATTACK, ATTACK))
    result = run_json(code)
    assert result["same"] is True
    assert result["q"] == ["common_term"]
    if PY2:  # the stdlib patch already fixed what WebOb forwards to
        assert result["skipped"]["webob.compat"] == "already splits on '&' only"
    else:
        assert "webob.compat.parse_qsl_text" in result["changed"]
    assert "malicious_term" in result["after"]


def test_a_generator_parser_keeps_its_kind_when_its_code_is_swapped():
    # WebOb's parse_qsl_text is a generator function; 3.13 warns (an error
    # under -W error) when a function gets code of another kind.
    import warnings

    def parse_qsl_text(qs, encoding="utf-8"):
        for field in qs.split(";"):
            yield field

    def replacement(qs, encoding="utf-8"):
        return iter([("swapped", qs)])

    saved = parse_qsl_text.__code__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _surgery.swap_code(parse_qsl_text, replacement, "tests.generator") is saved
        try:
            assert parse_qsl_text.__code__.co_flags & 0x20  # CO_GENERATOR
            assert list(parse_qsl_text("a;b")) == [("swapped", "a;b")]
        finally:
            parse_qsl_text.__code__ = saved
    assert list(parse_qsl_text("a;b")) == ["a", "b"]


def test_patch_imports_no_framework_and_fixes_it_on_import():
    # Installed but not imported: patch(frameworks=True) waits for the import.
    importorskip("webob")
    code = (
        "import json, sys, urllib_parse_backport as shim\n"
        "from _cpython_security._import_hook import installed\n"
        "report = shim.patch(frameworks=True)\n"
        "before = {'imported': 'webob' in sys.modules, 'skipped': dict(report.skipped),\n"
        "          'hooked': bool(installed())}\n"
        "import webob\n"
        "after = {'skipped': dict(report.skipped), 'changed': report.changed,\n"
        "         'hooked': any('webob.compat' in hook.names for hook in installed()),\n"
        "         'loader': type(getattr(sys.modules['webob.compat'], '__loader__', None))\n"
        "         .__name__,\n"
        "         'q': webob.Request.blank('/?' + %r).GET.getall('q')}\n"
        "print(json.dumps({'before': before, 'after': after}))\n" % ATTACK)
    result = run_json(code)
    before, after = result["before"], result["after"]
    assert before["imported"] is False
    assert before["skipped"]["webob.compat"] == WAITING
    assert before["hooked"] is True
    assert after["q"] == ["common_term"]
    assert after["hooked"] is False  # no longer waited for
    assert after["loader"] != "_CallingBackLoader"  # the real loader, given back
    if PY2:
        assert after["skipped"]["webob.compat"] == "already splits on '&' only"
    else:
        assert "webob.compat" not in after["skipped"]
        assert "webob.compat.parse_qsl_text" in after["changed"]


def test_the_hook_applies_a_waiting_adapter_on_import():
    seen = run_scenario("waiting_adapter", ["import"])
    assert seen["waiting"] == WAITING and seen["hooks"] == 1
    assert seen["after_import"] == "already splits on '&' only"
    assert seen["still_waited_for"] is False


def test_unpatch_removes_the_post_import_hook():
    seen = run_scenario("waiting_adapter", ["unpatch-first"])
    assert seen["waiting"] == WAITING and seen["hooks"] == 1
    assert seen["after_import"] == WAITING  # the old report: nothing applied
    assert seen["still_waited_for"] is False
    assert seen["hooks_after"] == 0


# --------------------------------------------------------------------------
# URLLIB_PARSE_BACKPORT_WARN through an adapter: the warning names the
# framework code that called its parser, not the adapter.
# --------------------------------------------------------------------------

def _framework_parser(qs, keep_blank_values=False):
    return [tuple(field.split("=", 1)) for field in qs.replace(";", "&").split("&") if field]


def _framework_body_processor(entity):
    entity.params = dict(_framework_parser(entity.fp.read().decode("ascii")))


def _warned_at(call):
    import warnings
    from urllib_parse_backport import QuerySeparatorWarning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    assert [warning.category for warning in caught] == [QuerySeparatorWarning]
    return os.path.splitext(caught[0].filename)[0], caught[0].lineno


HERE = os.path.splitext(__file__)[0]


def test_warning_names_the_caller_of_the_replacement(environment):
    environment({"URLLIB_PARSE_BACKPORT_WARN": "1"})
    replacement = _targets.separating_copy(_framework_parser, None)
    line = sys._getframe().f_lineno + 1
    assert _warned_at(lambda: replacement("a=1;b=2")) == (HERE, line)


def test_warning_names_the_caller_of_the_original_after_the_code_swap(environment):
    environment({"URLLIB_PARSE_BACKPORT_WARN": "1"})
    parser = _surgery.copy_function(_framework_parser)
    replacement = _targets.separating_copy(parser, None)
    saved = _surgery.swap_code(parser, replacement, "tests.warning")
    try:
        line = sys._getframe().f_lineno + 1
        assert _warned_at(lambda: parser("a=1;b=2")) == (HERE, line)
    finally:
        parser.__code__ = saved


def test_warning_names_the_caller_of_the_body_processor(environment):
    environment({"URLLIB_PARSE_BACKPORT_WARN": "1"})
    process = _frameworks._separate_body_by_policy(_framework_body_processor, None)
    entity = _frameworks._ProbeEntity(b"a=1;b=2")
    line = sys._getframe().f_lineno + 1
    assert _warned_at(lambda: process(entity)) == (HERE, line)
    assert entity.params == {"a": "1%3Bb=2"}  # ";" passed as data (no unquote here)


def test_the_hook_reaches_a_framework_in_a_zip_archive(tmp_path):
    # zipimport had no exec_module before 3.10: the hook wraps load_module there.
    seen = run_scenario("zipped_framework", [str(tmp_path)])
    assert seen["waiting"] == WAITING
    assert "zipped_framework.parsing.parse" in seen["changed"]
    assert seen["fields"] == ["q=1", "u=s%3Bq=2"]
    assert seen["loader"] == "zipimporter"


def test_plain_objects_in_sys_modules_keep_their_namespace_scanned():
    class LazyModule(object):  # not a ModuleType, no _module: its own __dict__
        pass
    lazy = LazyModule()
    lazy.parse = "value"
    assert _surgery.module_namespace(lazy) is lazy.__dict__
