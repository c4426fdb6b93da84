"""The Django adapter with a real Django app: ``patch(frameworks=True)`` and QueryDict.

Django 1.11 (EOL, never fixed) parses ``request.GET`` and urlencoded
``request.POST`` with ``django.utils.http.limited_parse_qsl``, which splits
on ``[&;]``. Django 2.2.19+ splits on ``'&'`` only (the adapter must leave it
alone); later versions dropped the function (the adapter must say so). Each
scenario runs in a fresh interpreter: Django imported before
``patch(frameworks=True)``, after it, or no adapter; requests go through
``django.test.Client``; ``unpatch()`` must give back the exact originals.
"""

import re
import types

import pytest

from dependencies import importorskip
from fresh_interpreter import ATTACK, run_scenario

from internals import _frameworks

try:
    from urllib.parse import unquote
except ImportError:  # Python 2.7
    from urllib import unquote

ORDERS = ["framework-first", "patch-first"]
LABEL = "django.utils.http.limited_parse_qsl"
ALIAS = "django.http.request.limited_parse_qsl"


SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": "s"}
SAFE = {"q": ["common_term"], "utm_content": "s;q=malicious_term"}


def run_app(order, frameworks=True, **environ):
    importorskip("django")
    return run_scenario("django_adapter", [order, "frameworks" if frameworks else "plain"],
                        **environ)


def vulnerable(result):
    """Whether this Django's limited_parse_qsl splits on [&;]: before 2.2.19, 3.0.13, 3.1.7."""
    version = tuple(result["django"])
    return (version < (2, 2, 19) or (3, 0) <= version < (3, 0, 13)
            or (3, 1) <= version < (3, 1, 7))


def test_without_the_adapter():
    result = run_app("no-adapter")
    if vulnerable(result):
        assert result["seen"] == {"GET": SMUGGLED, "POST": SMUGGLED}
    else:
        assert result["seen"] == {"GET": SAFE, "POST": SAFE}


@pytest.mark.parametrize("order", ORDERS)
def test_with_the_adapter_the_app_sees_the_cached_value(order):
    result = run_app(order)
    assert result["seen"] == {"GET": SAFE, "POST": SAFE}
    django_changed = [name for name in result["changed"] if name.startswith("django.")]
    if not vulnerable(result):
        # Aliases of an unfixed stdlib's parse_qsl (django.utils.html) are the
        # stdlib target's, not the adapter's.
        assert [name for name in django_changed if "limited_parse_qsl" in name] == []
        return
    assert LABEL in django_changed
    assert LABEL + " (in place)" in django_changed
    assert result["alias_is_parser"] is True
    if order == "framework-first":
        # QueryDict's module bound the original by name before patch().
        assert ALIAS in django_changed
    else:
        # Imported after patch(): it bound the replacement, nothing to rebind.
        assert ALIAS not in django_changed


def test_plain_patch_does_not_reach_django():
    # Django's own parser is no stdlib function: only frameworks=True fixes it.
    result = run_app("framework-first", frameworks=False)
    assert [name for name in result["changed"] if "limited_parse_qsl" in name] == []
    if vulnerable(result):
        assert result["seen"] == {"GET": SMUGGLED, "POST": SMUGGLED}
    else:
        assert result["seen"] == {"GET": SAFE, "POST": SAFE}


@pytest.mark.parametrize("order", ORDERS)
def test_fixed_django_is_left_alone_with_the_reason(order):
    result = run_app(order)
    if vulnerable(result):
        pytest.skip("Django %s still splits on ';'" % ".".join(map(str, result["django"])))
    skipped = dict((name, reason) for name, reason in result["skipped"])
    if result["has_parser"]:  # 2.2.19+, 3.0.13+, 3.1.7+
        assert skipped["django.utils.http"] == "already splits on '&' only"
    else:
        assert skipped["django.utils.http"] == LABEL + " not found: unknown version"
    assert result["after_unpatch"] == {"GET": SAFE, "POST": SAFE}


@pytest.mark.parametrize("order", ORDERS)
def test_unpatch_restores_the_original_parser(order):
    result = run_app(order)
    if not vulnerable(result):
        pytest.skip("the adapter left Django %s alone"
                    % ".".join(map(str, result["django"])))
    assert result["identical"] is True
    assert result["after_unpatch"] == {"GET": SMUGGLED, "POST": SMUGGLED}


@pytest.mark.parametrize("order", ORDERS)
def test_legacy_separator(order):
    # PYTHON_URLLIB_QS_SEPARATOR=legacy: the operator asked for 2.7.18's split
    # on both. The adapter honours it on 1.11; a fixed Django's own parser is
    # not the adapter's to change.
    result = run_app(order, PYTHON_URLLIB_QS_SEPARATOR="legacy")
    if vulnerable(result):
        assert LABEL in result["changed"]
        assert result["seen"] == {"GET": SMUGGLED, "POST": SMUGGLED}
    else:
        assert [name for name in result["changed"] if "limited_parse_qsl" in name] == []
        assert result["seen"] == {"GET": SAFE, "POST": SAFE}


# --------------------------------------------------------------------------
# The adapter's verdict on stand-in modules: detect by behaviour, never blindly.
# --------------------------------------------------------------------------

def _parser(fields_match):
    def limited_parse_qsl(qs, keep_blank_values=False, encoding="utf-8",
                          errors="replace", fields_limit=None):
        pairs = [pair for pair in re.split(fields_match, qs) if pair]
        if fields_limit and len(pairs) > fields_limit:
            raise ValueError("too many fields")
        return [tuple(unquote(part) for part in pair.split("=", 1)) for pair in pairs]
    return limited_parse_qsl


ADAPTER = [adapter for adapter in _frameworks.ADAPTERS
           if adapter.module == "django.utils.http"][0]


def _assess(parser):
    module = types.ModuleType("django.utils.http")
    if parser is not None:
        module.limited_parse_qsl = parser
    return ADAPTER.assess(module, {})


def test_assess_patches_the_1_11_parser():
    assert _assess(_parser("[&;]")) == (True, "splits on ';' (CVE-2021-23336)")


def test_assess_leaves_the_fixed_parser_alone():
    assert _assess(_parser("&")) == (False, "already splits on '&' only")


def test_assess_leaves_a_missing_parser_alone():
    assert _assess(None) == (False, LABEL + " not found: unknown version")


def test_adapter_is_never_forced():
    assert ADAPTER.forceable is False


def test_replacement_keeps_the_signature_and_the_fields_limit(upstream_default_separator):
    original = _parser("[&;]")
    replacement = ADAPTER.wrap(original, None)
    assert replacement.__defaults__ == original.__defaults__
    # Two fields once ';' is data: within Django's limit of 2, which 1.11's
    # own split (three fields) exceeds.
    assert replacement(ATTACK, keep_blank_values=True, fields_limit=2) == [
        ("q", "common_term"), ("utm_content", "s;q=malicious_term")]
    with pytest.raises(ValueError):
        original(ATTACK, keep_blank_values=True, fields_limit=2)
