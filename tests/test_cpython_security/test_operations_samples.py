"""docs/operations.rst's samples, run as written: they do what the page says they do.

Each sample is read from the page (its ``.. code-block:: python``), run in a
fresh interpreter of the test environment, and compared with what
``CPYTHON_SECURITY_PATCH=1`` and ``cpython-security-check`` give: "In code"
and gunicorn's ``post_fork`` must leave in force every fix the switch does,
and the health check must answer 503 exactly when the check says exposed,
naming the fixes it names. Before the umbrella API the samples patched
three packages of ten and asked the same three: on 3.13.0 the health check
answered 200 while the check reported 14 fixes exposed.
"""

import io
import json
import os
import shutil
import tempfile

import pytest

from fresh_interpreter import run_code
from umbrella_helpers import MODULES, check_exposed, child_state, imports, without_future

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "docs",
                    "operations.rst")

pytestmark = pytest.mark.skipif(not os.path.isfile(PAGE), reason="no docs/operations.rst here")

BEFORE, AFTER = MODULES[::2], MODULES[1::2]
SKIP = "CVE-2025-0938"  # lacked by every interpreter of the matrix


def python_blocks():
    """The page's ``.. code-block:: python`` blocks, dedented."""
    with io.open(PAGE, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    blocks = []
    for index, line in enumerate(lines):
        if line.strip() != ".. code-block:: python":
            continue
        indent = len(line) - len(line.lstrip())
        body = []
        for following in lines[index + 1:]:
            if following.strip() and len(following) - len(following.lstrip()) <= indent:
                break
            body.append(following)
        text = "\n".join(body).strip("\n")
        margin = min(len(each) - len(each.lstrip()) for each in text.splitlines() if each.strip())
        blocks.append("\n".join(each[margin:] for each in text.splitlines()) + "\n")
    return blocks


def sample(marker):
    """The one block holding *marker*."""
    found = [block for block in python_blocks() if marker in block]
    assert len(found) == 1, (marker, len(found))
    return found[0]


@pytest.fixture
def myapp():
    """A directory holding ``myapp.py``, an application that imports every module a
    fix is for (the "In code" sample's ``from myapp import application``)."""
    directory = tempfile.mkdtemp()
    with open(os.path.join(directory, "myapp.py"), "w") as handle:
        handle.write(imports(AFTER) + "application = None\n")
    yield directory
    shutil.rmtree(directory)


@pytest.mark.parametrize("skip", [None, SKIP])
def test_in_code_sample_applies_what_the_switch_does(myapp, skip):
    environ = {"CPYTHON_SECURITY_SKIP": skip} if skip else {}
    by_sample = child_state(imports(BEFORE) + sample("# wsgi.py"),
                            PYTHONPATH=os.pathsep.join([myapp, without_future()]), **environ)
    by_switch = child_state(imports(BEFORE) + imports(AFTER), CPYTHON_SECURITY_PATCH="1",
                            **environ)
    assert by_sample["state"] == by_switch["state"]
    assert [record["fix"] for record in by_sample["exposed"]] == \
        check_exposed(CPYTHON_SECURITY_PATCH="1", **environ)


def test_post_fork_sample_applies_what_the_switch_does():
    code = sample("def post_fork(server, worker):")
    by_sample = child_state(imports(BEFORE) + code + "post_fork(None, None)\n" + imports(AFTER))
    by_switch = child_state(imports(MODULES), CPYTHON_SECURITY_PATCH="1")
    assert by_sample["state"] == by_switch["state"]
    assert [record["fix"] for record in by_sample["exposed"]] == \
        check_exposed(CPYTHON_SECURITY_PATCH="1")


HEALTH = """
import json
%(imports)s
%(sample)s
answer = []
body = cve_health({}, lambda status, headers: answer.append(status))
print(json.dumps({"status": int(answer[0].split()[0]),
                  "exposed": json.loads(b"".join(body).decode("utf-8"))["exposed"]}))
"""


@pytest.mark.parametrize("environ", [
    {}, {"CPYTHON_SECURITY_PATCH": "1"},
    {"CPYTHON_SECURITY_PATCH": "1", "CPYTHON_SECURITY_SKIP": SKIP}])
def test_health_check_answers_503_exactly_when_the_check_says_exposed(environ):
    code = HEALTH % {"imports": imports(MODULES),
                     "sample": sample("def cve_health(environ, start_response):")}
    rc, out, err = run_code(code, PYTHONPATH=without_future(), **environ)
    assert rc == 0, err
    answer = json.loads(out.strip().splitlines()[-1])
    wanted = check_exposed(**environ)
    assert answer["status"] == (503 if wanted else 200)
    assert [record["fix"] for record in answer["exposed"]] == wanted
