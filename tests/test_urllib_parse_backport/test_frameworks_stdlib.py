"""Real frameworks, real requests: what the app sees for the attack query.

Each scenario runs in a fresh interpreter: the framework imported before
``patch()``, after it, or no shim at all. On 2.7.18 (vulnerable stdlib) the
unpatched scenario must show the smuggled value, so the others prove the
shim. On a fixed 3.x stdlib the patched scenarios force the shim and check
nothing breaks; in the py3X-unfixed environments they must work unforced
(tests/stdlib_state.py). WebOb/Pyramid run on 2.7 only: on 3.x WebOb
parses query strings itself, which this shim does not claim; the WebOb adapter
does (test_frameworks.py, test_frameworks_pyramid.py).
"""

import sys

import pytest

from dependencies import importorskip
from stdlib_state import FORCE, UNFIXED

from fresh_interpreter import run_scenario

PY2 = sys.version_info[0] == 2

#: Each app prints {"q": <value the app reads>, "q_all": [...], "utm_content": ...}.


FRAMEWORKS = ["webob", "pyramid", "tornado", "paste", "webpy"] if PY2 else [
    "tornado", "paste", "webpy"]
MODULES = {"webob": "webob", "pyramid": "pyramid", "tornado": "tornado", "paste": "paste",
           "webpy": "web"}


def run_app(framework, order):
    importorskip(MODULES[framework])
    return run_scenario("stdlib_framework", [framework, order, "force" if FORCE else "plain"])


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("order", ["framework-first", "patch-first"])
def test_app_sees_the_cached_value_after_patch(framework, order):
    seen = run_app(framework, order)
    assert seen == {"q": "common_term", "q_all": ["common_term"],
                    "utm_content": "s;q=malicious_term"}


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_without_the_shim(framework):
    seen = run_app(framework, "no-shim")
    if UNFIXED:
        # 2.7.18 (or a py3X-unfixed stdlib) splits on ';': the smuggled q reaches the app.
        assert "malicious_term" in seen["q_all"]
        assert seen["utm_content"] == "s"
    else:
        assert seen["q_all"] == ["common_term"]
        assert seen["utm_content"] == "s;q=malicious_term"
