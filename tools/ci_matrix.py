"""The test matrix as tox.ini describes it, for the tools that run it.

    python tools/ci_matrix.py versions      # the CPython X.Y versions, for tools/matrix
    python tools/ci_matrix.py pypy          # the PyPy executables, for tools/matrix
    python tools/ci_matrix.py versions py38,lint   # ... only those these environments need
    python tools/ci_matrix.py image ENV     # ENV's container image (exit 1: none)
    python tools/ci_matrix.py github        # the CI matrix, as GITHUB_OUTPUT lines

tox.ini's ``envlist`` is the one list of environments. Each environment's
interpreter is its ``base_python`` or its ``pyXY`` factor; an environment
with a ``ci_image`` (a factor-conditional key of ``[testenv]``, which tox
itself does not read) runs in that official image through
tools/ci_container.sh, where hosted runners have no such interpreter and
tox 4 cannot run; every other one runs ``tox run -e ENV`` on a hosted
runner with setup-python's build of its interpreter. Adding an environment
to the envlist adds it to tools/matrix and to .github/workflows/ci.yml.

Runs on every interpreter of the matrix (2.7 in the containers included).
"""

from __future__ import print_function

import json
import os
import re
import sys

try:
    import configparser
except ImportError:  # Python 2.7
    import ConfigParser as configparser

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOX_INI = os.path.join(ROOT, "tox.ini")


def read_tox(path=TOX_INI):
    config = configparser.RawConfigParser()
    config.read(path)
    return config


def envlist(config):
    """The envlist, in its order; a brace expression is refused, not guessed."""
    names = [name.strip() for name in re.split(r"[,\s]+", config.get("tox", "envlist"))]
    if any("{" in name for name in names):
        raise ValueError("tools/ci_matrix.py reads no brace expansion in the envlist: %s" % names)
    return [name for name in names if name]


def _expand(section):
    """The environment names of a ``testenv:`` section name, braces expanded."""
    found = re.search(r"\{([^{}]*)\}", section)
    if not found:
        return [section]
    head, tail = section[:found.start()], section[found.end():]
    return [name for part in found.group(1).split(",")
            for name in _expand(head + part.strip() + tail)]


def _sections(config, env):
    """The sections that configure *env*, its own first, ``[testenv]`` last."""
    own = [s for s in config.sections()
           if s.startswith("testenv:") and env in _expand(s[len("testenv:"):])]
    return own + (["testenv"] if config.has_section("testenv") else [])


def _conditional(value, env):
    """A value with tox's factor conditions (``py27: x``; ``a,b:`` either,
    ``a-b:`` both) resolved for *env*; None when no line applies."""
    factors = set(env.split("-"))
    kept = []
    for line in value.strip().splitlines():
        condition = re.match(r"^\s*([\w.,!-]+):\s+(.*)$", line)
        if condition is None:
            kept.append(line.strip())
            continue
        for alternative in condition.group(1).split(","):
            wanted = alternative.split("-")
            if all((f[1:] not in factors) if f.startswith("!") else (f in factors)
                   for f in wanted):
                kept.append(condition.group(2).strip())
                break
    kept = [line for line in kept if line]
    return "\n".join(kept) if kept else None


def setting(config, env, key):
    for section in _sections(config, env):
        if config.has_option(section, key):
            return _conditional(config.get(section, key), env)
    return None


def python(config, env):
    """*env*'s interpreter as setup-python names it: ``3.8``, ``pypy3.9``."""
    base = setting(config, env, "base_python")
    if base:
        found = re.match(r"^(?:python)?(pypy)?(\d\.\d+)$", base)
        if found:
            return (found.group(1) or "") + found.group(2)
        found = re.match(r"^(pypy)?py(\d)(\d+)$", base)
        if found:
            return (found.group(1) or "") + found.group(2) + "." + found.group(3)
    for factor in env.split("-"):
        found = re.match(r"^py(\d)(\d+)$", factor)
        if found:
            return found.group(1) + "." + found.group(2)
    raise ValueError("tox.ini names no interpreter for %s: give it a pyXY factor or a "
                     "base_python such as pypy3.9" % env)


def _version_key(version):
    return [int(part) for part in re.findall(r"\d+", version)]


def describe(config):
    """``{"tox": [{env, python}], "containers": [{env, image}], "versions": [X.Y],
    "pypy": [executables], "install": [X.Y]}``, in the envlist's order."""
    tox, containers, versions, pypy, hosted = [], [], set(), set(), set()
    for env in envlist(config):
        interpreter = python(config, env)
        image = setting(config, env, "ci_image")
        if interpreter.startswith("pypy"):
            pypy.add(interpreter)
        else:
            versions.add(interpreter)
        if image and not re.match(r"^[\w./-]+:\d+\.\d+\.\d+(-[\w.]+)?(@sha256:[0-9a-f]{64})?$",
                                  image):
            raise ValueError("%s: ci_image %s has no full version tag (python:2.7.18-buster)"
                             % (env, image))
        if image:
            containers.append({"env": env, "image": image})
        else:
            tox.append({"env": env, "python": interpreter})
            if not interpreter.startswith("pypy"):
                hosted.add(interpreter)
    return {"tox": tox, "containers": containers,
            "versions": sorted(versions, key=_version_key), "pypy": sorted(pypy),
            # tools/check_install.py on the hosted runner: its CPythons.
            "install": sorted(hosted, key=_version_key)}


def needed(config, envs):
    """``(CPython X.Y versions, PyPy executables)`` that the environments *envs*
    (tox's ``-e`` values, comma-separated or not; ``ALL``: the envlist) run on,
    sorted: ``tools/matrix -e py38`` needs 3.8 and no other interpreter."""
    names = [name for value in envs for name in value.split(",") if name]
    if not names or "ALL" in names:
        names = envlist(config)
    found = set(python(config, env) for env in names)
    return (sorted((v for v in found if not v.startswith("pypy")), key=_version_key),
            sorted(v for v in found if v.startswith("pypy")))


def github_output(matrix):
    """``name=value`` lines for GITHUB_OUTPUT (a multi-line value in a heredoc)."""
    return "\n".join([
        "tox=" + json.dumps(matrix["tox"]),
        "containers=" + json.dumps(matrix["containers"]),
        "install=" + " ".join(matrix["install"]),
        "pythons<<EOF", "\n".join(matrix["install"]), "EOF",
    ])


def main(argv, path=TOX_INI):
    config = read_tox(path)
    matrix = describe(config)
    if argv[:1] == ["versions"]:
        print(" ".join(needed(config, argv[1:])[0] if argv[1:] else matrix["versions"]))
    elif argv[:1] == ["pypy"]:
        print(" ".join(needed(config, argv[1:])[1] if argv[1:] else matrix["pypy"]))
    elif argv == ["github"]:
        print(github_output(matrix))
    elif len(argv) == 2 and argv[0] == "image":
        image = [c["image"] for c in matrix["containers"] if c["env"] == argv[1]]
        if not image:
            print("tools/ci_matrix.py: tox.ini gives %s no ci_image" % argv[1], file=sys.stderr)
            return 1
        print(image[0])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
