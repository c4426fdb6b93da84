"""tox.ini's envlist is the one description of the matrix (tools/ci_matrix.py).

Adding an interpreter is a one-place change: an environment added to a copy
of tox.ini reaches tools/matrix's interpreters, CI's tox job, its install
checks and, with a ``ci_image``, its container job; and no other file that
runs the matrix names an environment or an interpreter of it.
"""

import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "ci_matrix.py")


def _ask(tox_ini, *args):
    """tools/ci_matrix.py's answer, run beside a copy of tox.ini as it is run."""
    folder = os.path.dirname(os.path.dirname(tox_ini))
    process = subprocess.Popen([sys.executable, os.path.join(folder, "tools", "ci_matrix.py")]
                               + list(args), stdout=subprocess.PIPE, universal_newlines=True)
    out = process.communicate()[0]
    assert process.returncode == 0, out
    return out


def _copy(tmpdir, edit):
    """A tree with tools/ci_matrix.py and tox.ini edited by *edit*; its tox.ini."""
    folder = str(tmpdir)
    os.mkdir(os.path.join(folder, "tools"))
    shutil.copy(TOOL, os.path.join(folder, "tools"))
    with open(os.path.join(ROOT, "tox.ini")) as handle:
        text = edit(handle.read())
    with open(os.path.join(folder, "tox.ini"), "w") as handle:
        handle.write(text)
    return os.path.join(folder, "tools", "ci_matrix.py")


def _github(tool):
    out = _ask(tool, "github")
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line), out


def _add(text, env, image=None):
    text = re.sub(r"(\nenvlist = )", r"\1%s, " % env, text, count=1)
    if image:
        text = text.replace("\nci_image =\n", "\nci_image =\n    %s: %s\n" % (env, image), 1)
    return text


def test_an_environment_added_to_tox_ini_reaches_every_consumer(tmpdir):
    import json
    tool = _copy(tmpdir, lambda text: _add(text, "py314"))
    assert "3.14" in _ask(tool, "versions").split()  # tools/matrix's interpreters
    outputs, raw = _github(tool)
    assert {"env": "py314", "python": "3.14"} in json.loads(outputs["tox"])
    assert "3.14" in outputs["install"].split()  # CI's install checks
    assert "\n3.14\n" in raw  # ... and their setup-python


def test_a_container_environment_is_one_line_more(tmpdir):
    import json
    tool = _copy(tmpdir, lambda text: _add(text, "py35", "python:3.5.10-buster"))
    outputs, _ = _github(tool)
    assert {"env": "py35", "image": "python:3.5.10-buster"} in json.loads(outputs["containers"])
    assert "py35" not in [entry["env"] for entry in json.loads(outputs["tox"])]
    assert "3.5" not in outputs["install"].split()
    assert _ask(tool, "image", "py35").strip() == "python:3.5.10-buster"


def test_the_matrix_is_every_environment_once():
    import json
    outputs, _ = _github(TOOL)
    envs = [e["env"] for e in json.loads(outputs["tox"]) + json.loads(outputs["containers"])]
    with open(os.path.join(ROOT, "tox.ini")) as handle:
        envlist = re.search(r"\nenvlist = ((?:.*\n)(?:    .*\n)*)", handle.read()).group(1)
    assert sorted(envs) == sorted(re.findall(r"[\w.-]+", envlist))


def _code(path):
    """The file without its comments (examples of usage may name environments)."""
    with open(os.path.join(ROOT, path)) as handle:
        # Debian's package "pypy3" is not the environment of that name.
        return "\n".join(line.split(" #")[0] for line in handle.read().splitlines()
                         if not line.lstrip().startswith("#") and "apt-get" not in line)


def test_no_other_file_lists_the_environments_or_their_interpreters():
    import json
    outputs, _ = _github(TOOL)
    matrix = json.loads(outputs["tox"]) + json.loads(outputs["containers"])
    envs = set(entry["env"] for entry in matrix)
    versions = set(_ask(TOOL, "versions").split()) - set(["3.11"])  # 3.11: tox's own
    for path in (".github/workflows/ci.yml", "tools/matrix", "tools/ci_container.sh"):
        if not os.path.exists(os.path.join(ROOT, path)):
            continue  # an sdist has no workflows
        code = _code(path)
        named = set(re.findall(r"(?<![\w.-])([\w.-]+)(?![\w.-])", code))
        assert named & envs == set(), path
        assert set(re.findall(r"(?<![\w.])(\d\.\d+)(?![\w.])", code)) & versions == set(), path
        assert "python:" not in code, path  # an image


def test_an_image_without_a_full_version_tag_is_refused(tmpdir):
    tool = _copy(tmpdir, lambda text: _add(text, "py35", "python:3.5"))
    process = subprocess.Popen([sys.executable, tool, "github"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
    err = process.communicate()[1]
    assert process.returncode != 0 and "no full version tag" in err, err


def test_one_environment_needs_its_own_interpreter_only():
    # tools/matrix -e py38 looks for 3.8 under pyenv and for nothing else.
    assert _ask(TOOL, "versions", "py38").split() == ["3.8"]
    assert _ask(TOOL, "pypy", "py38").split() == []
    assert _ask(TOOL, "versions", "py27,lint", "py313").split() == ["2.7", "3.11", "3.13"]
    assert _ask(TOOL, "pypy", "pypy3").split() == ["pypy3.9"]
    assert _ask(TOOL, "versions", "ALL") == _ask(TOOL, "versions")
