"""Which fixes does each interpreter lack? Ask ``cpython-security-check`` on each one.

    python tools/interpreter_table.py                 # rewrite docs/_data/interpreters.json
    python tools/interpreter_table.py --check         # exit 1 if the file differs from a run now
    python tools/interpreter_table.py /usr/bin/python3.11   # add other interpreters

Runs the self-check of this source tree (``PYTHONPATH=src``) on every
interpreter of the test matrix (tox.ini's envlist through
``tools/ci_matrix.py``: the pyenv CPythons and the PyPy executables, found
as ``tools/matrix`` finds them) in a bare process: ``-S``, so no ``.pth``
switch runs and no installed framework is probed, and without the
distribution's variables. A fix the check reports ``EXPOSED`` there is one
the interpreter lacks. The docs render the file (``.. interpreter-table::``,
``docs/_ext/generated.py``) with the date and the patch releases it was
measured on; ``tests/test_interpreter_table.py`` checks the row of the
interpreter that runs the tests against the check.
"""

from __future__ import print_function

import datetime
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "docs", "_data", "interpreters.json")
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "src"))  # the registry's order of the fixes

import ci_matrix  # noqa: E402

VARIABLES = ("PYTHON_URLLIB_QS_SEPARATOR", "URLLIB_PARSE_BACKPORT_WARN",
             "URLLIB_PARSE_BACKPORT_PATCH", "CTYPES_SAFE_PATCH", "HTTP_COOKIES_BACKPORT_PATCH",
             "CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP", "PYTHONWARNINGS")

NAME = ("import platform, sys; print('%s %s' % (platform.python_implementation(), "
        "platform.python_version()))")


def matrix_interpreters():
    """The executables of the matrix: pyenv's X.Y.Z for each version, then the PyPys."""
    matrix = ci_matrix.describe(ci_matrix.read_tox())
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = []
    for version in matrix["versions"]:
        candidates = sorted(glob.glob(os.path.join(root, "versions", version + ".*", "bin",
                                                   "python" + version)))
        if not candidates:
            raise SystemExit("tools/interpreter_table.py: no Python %s under %s/versions"
                             % (version, root))
        found.append(candidates[-1])
    for pypy in matrix["pypy"]:
        for directory in os.environ.get("PATH", "").split(os.pathsep):
            if os.path.exists(os.path.join(directory, pypy)):
                found.append(os.path.join(directory, pypy))
                break
        else:
            raise SystemExit("tools/interpreter_table.py: no %s on PATH" % pypy)
    return found


def run_check(executable):
    """``(interpreter name, {CVE: lacks}, exit status)`` of the check on *executable*."""
    env = dict(os.environ)
    for name in VARIABLES:
        env.pop(name, None)
    env["PYTHONPATH"] = os.path.join(ROOT, "src")
    name = subprocess.check_output([executable, "-S", "-c", NAME], env=env,
                                   universal_newlines=True).strip()
    process = subprocess.Popen([executable, "-S", "-m", "_cpython_security._check", "--json"],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
    out, err = process.communicate()
    if process.returncode not in (0, 1):
        raise SystemExit("%s: cpython-security-check exited %s:\n%s%s"
                         % (executable, process.returncode, out, err))
    return name, parse(json.loads(out)), process.returncode


def parse(document):
    """``[(fix, whether this interpreter lacks it)]`` from the check's ``--json`` document,
    in the registry's order: each package's ``status()``, whose ``"fixes"`` say each fix
    of a package of several (``lacks``), else the package's one (``vulnerable``)."""
    from _cpython_security._registry import FIXES
    lacks = []
    for fix in FIXES:
        info = document[fix.package]
        if "fixes" in info:
            lacks.append((fix.cve, bool(info["fixes"][fix.cve]["lacks"])))
        else:
            lacks.append((fix.cve, bool(info["vulnerable"])))
    return lacks


def measure(executables, extra=()):
    """The file's content: a row per executable (*extra* ones named with their path)."""
    rows, cves = [], None
    for executable in list(executables) + list(extra):
        name, lacks, code = run_check(executable)
        if executable in extra:
            name = "%s (%s)" % (name, executable)
        order = [cve for cve, _ in lacks]
        if cves is not None and order != cves:
            raise SystemExit("%s: the check lists %s, not %s" % (executable, order, cves))
        cves = order
        rows.append({"name": name, "lacks": dict(lacks), "exit_status": code})
        print("%-16s %s" % (name, ", ".join(cve for cve, lacking in lacks if lacking)
                            or "lacks none"), file=sys.stderr)
    version = {}
    with open(os.path.join(ROOT, "src", "_cpython_security", "_version.py")) as handle:
        exec(handle.read(), version)
    return {"date": datetime.date.today().isoformat(), "version": version["__version__"],
            "cves": cves, "interpreters": rows}


def main(argv):
    check = "--check" in argv
    extra = [arg for arg in argv if arg != "--check"]
    data = measure(matrix_interpreters(), extra)
    if check:
        with open(DATA) as handle:
            saved = json.load(handle)
        saved.pop("date"), data.pop("date")
        if saved != data:
            print("tools/interpreter_table.py: docs/_data/interpreters.json is out of date: "
                  "run python tools/interpreter_table.py", file=sys.stderr)
            return 1
        return 0
    if not os.path.isdir(os.path.dirname(DATA)):
        os.makedirs(os.path.dirname(DATA))
    with open(DATA, "w") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
        handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
