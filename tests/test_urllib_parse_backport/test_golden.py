"""Golden differential: replay recorded reference outcomes against the backport.

``golden_py3.json`` (beside this file) holds calls run on CPython 3.13.0's own
``urllib.parse`` (the spec for every Python 3); ``golden_py2.json``
holds calls run on CPython 2.7.18's ``urlparse`` code with only the split step
changed to "split on the separator". Both are written by ``tools/gen_golden.py``,
whose docstring says exactly how; regenerate with ``python3 tools/gen_golden.py``.

Each call must give the same result, with the same types (``str``/``bytes``/
``unicode``/``bytearray``, list of tuples, dict of lists, dict order on
Python 3), or the same exception type and message.
"""

import io
import json
import os
import sys

import pytest

import urllib_parse_backport

from golden_cases import run_case
from implementation import IS_CPYTHON

PY2 = sys.version_info[0] == 2
DATA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "golden_py2.json" if PY2 else "golden_py3.json")
CHUNK = 200
FUNCTIONS = {
    "parse_qsl": urllib_parse_backport.parse_qsl,
    "parse_qs": urllib_parse_backport.parse_qs,
}


#: Messages of the interpreter's own ``memoryview()`` and codec machinery,
#: raised by the same calls in the stdlib: PyPy words them otherwise (and
#: wraps a codec's error in "decoding with ... failed"), so there the type
#: alone is compared.
INTERPRETER_WORDED = ("memoryview: a bytes-like object is required",
                      "unknown error handler name", "don't know how to handle")


def matches(case, outcome):
    expected = case["o"]
    if case.get("m") == "type" and "exc" in expected and "exc" in outcome:
        return outcome["exc"][0] == expected["exc"][0]
    if not IS_CPYTHON and "exc" in expected and expected["exc"][1].startswith(
            INTERPRETER_WORDED):
        return "exc" in outcome and outcome["exc"][0] == expected["exc"][0]
    return outcome == expected


def describe(case, outcome):
    args = ", ".join([json.dumps(a) for a in case["a"]]
                     + ["%s=%s" % (name, json.dumps(value)) for name, value in case["k"]])
    return "%s(%s)\n    expected %s\n    got      %s" % (
        case["f"], args, json.dumps(case["o"]), json.dumps(outcome))


def load():
    with io.open(DATA_FILE, encoding="ascii") as handle:
        return json.load(handle)


GOLDEN = load()
CASES = GOLDEN["cases"]


# Run with the upstream default ('&'), whatever PYTHON_URLLIB_QS_SEPARATOR says.
pytestmark = pytest.mark.usefixtures("upstream_default_separator")


def test_data_file_is_what_its_header_says():
    header = GOLDEN["header"]
    assert header["generator"] == "tools/gen_golden.py"
    assert header["cases"] == len(CASES) > 1000
    expected_reference = "CPython 2.7.18 urlparse" if PY2 else "CPython 3.13.0 urllib.parse"
    assert header["reference"].startswith(expected_reference)
    # Every kind of outcome is represented, so a replay that ignores them cannot pass.
    kinds = set(case["o"]["exc"][0] if "exc" in case["o"] else case["o"]["ok"][0]
                for case in CASES)
    assert set(["list", "dict", "ValueError", "TypeError", "UnicodeEncodeError",
                "UnicodeDecodeError"]) <= kinds


@pytest.mark.parametrize("start", range(0, len(CASES), CHUNK),
                         ids=lambda start: "cases_%04d" % start)
def test_backport_matches_reference(start):
    mismatches = []
    for index in range(start, min(start + CHUNK, len(CASES))):
        case = CASES[index]
        outcome = run_case(FUNCTIONS, case)
        if not matches(case, outcome):
            mismatches.append("case %d: %s" % (index, describe(case, outcome)))
    assert not mismatches, "%d of %d calls differ from %s; first ones:\n%s" % (
        len(mismatches), min(CHUNK, len(CASES) - start), GOLDEN["header"]["reference"],
        "\n".join(mismatches[:8]))
