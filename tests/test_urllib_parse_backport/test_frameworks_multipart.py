"""python-multipart adapter: ``QuerystringParser`` splits urlencoded bodies on ``[&;]``.

python-multipart parses Starlette's and FastAPI's urlencoded ``request.form()``
on every interpreter (the stdlib fix does not reach it): 0.0.5 (module
``multipart``) on 3.6, 0.0.8 (``multipart``) on 3.7, 0.0.20 (``python_multipart``,
with a ``multipart`` alias) from 3.8 (tests/requirements/asgi.txt). The
start-up test runs a real Starlette app in a fresh interpreter with
``URLLIB_PARSE_BACKPORT_PATCH=frameworks``; the others patch in this process.
"""

import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import ATTACK, run_scenario

if sys.version_info[0] < 3:
    pytest.skip("python-multipart is installed on Python 3 only here", allow_module_level=True)

try:
    import python_multipart as multipart  # 0.0.13+
    MODULE = "python_multipart.multipart"
except ImportError:
    multipart = importorskip("multipart")  # up to 0.0.12
    MODULE = "multipart.multipart"

LABEL = MODULE + ".QuerystringParser.write"
SAFE = {"q": ["common_term"], "utm_content": "s;q=malicious_term"}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": "s"}


def fields(chunks):
    """``[(name, value)]`` python-multipart finds in the body written as *chunks*."""
    found, current = [], {}

    def on(part):
        def callback(data, start, end):
            current[part] = current.get(part, b"") + data[start:end]
        return callback

    def on_field_end():
        found.append((current.pop("name", b""), current.pop("value", b"")))

    parser = multipart.QuerystringParser(callbacks={
        "on_field_name": on("name"), "on_field_data": on("value"), "on_field_end": on_field_end})
    written = [parser.write(chunk) for chunk in chunks]
    parser.finalize()
    assert written == [len(chunk) for chunk in chunks]  # as the caller wrote them
    return found


BODY = ATTACK.encode("ascii")


def test_without_the_adapter_the_parser_splits_on_semicolons(unpatched):
    assert fields([BODY]) == [(b"q", b"common_term"), (b"utm_content", b"s"),
                              (b"q", b"malicious_term")]


@pytest.mark.parametrize("cut", [1, 27, 28, len(BODY)])
def test_with_the_adapter_one_field_wherever_the_body_is_cut(unpatched, cut):
    original = multipart.QuerystringParser.write
    report = unpatched.patch(frameworks=True)
    assert LABEL + " (in place)" in report.changed
    assert multipart.QuerystringParser.write is original  # its code is swapped
    assert fields([BODY[:cut], BODY[cut:]]) == [(b"q", b"common_term"),
                                                (b"utm_content", b"s%3Bq=malicious_term")]
    unpatched.unpatch()
    assert multipart.QuerystringParser.write is original
    assert len(fields([BODY])) == 3


def test_the_self_check_lists_it(unpatched):
    entry, = [e for e in unpatched.status()["frameworks"] if e["parser"] == LABEL]
    assert entry["exposed"] is True and entry["patched"] is False
    unpatched.patch(frameworks=True)
    entry, = [e for e in unpatched.status()["frameworks"] if e["parser"] == LABEL]
    assert entry["exposed"] is False and entry["patched"] is True


def test_starlette_form_under_the_start_up_switch_then_unpatch():
    importorskip("starlette")
    result = run_scenario("starlette_adapter", URLLIB_PARSE_BACKPORT_PATCH="frameworks")
    assert result["seen"] == SAFE
    assert LABEL + " (in place)" in result["changed"]
    assert [e["parser"] for e in result["listed"] if e["patched"]] == [LABEL]
    assert result["after_unpatch"] == SMUGGLED


def test_starlette_form_without_the_switch_sees_the_smuggled_value():
    importorskip("starlette")
    result = run_scenario("starlette_adapter")
    assert result["seen"] == SMUGGLED and result["changed"] == []
