"""Build the distributions and install them for real into fresh environments.

For every interpreter named on the command line (found as ``pythonX.Y`` on
PATH):

* the wheel is installed with that interpreter's *own* pip (the one its
  ``ensurepip`` bundles: 19.2.3 on 2.7.18, 18.1 on 3.6.15, ...);
* the sdist is installed with the newest pip that interpreter supports, which
  builds it through PEP 517 (setuptools 44 on 2.7);
* the source tree is installed with ``pip install .`` in the same way;

and each installation must import both packages and parse the attack query
safely. Usage: ``python tools/check_install.py 2.7 3.6 ... 3.13``.
"""

from __future__ import print_function

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: The newest pip each old interpreter can run; others take the latest.
NEWEST_PIP = {"2.7": "pip<21", "3.6": "pip<22", "3.7": "pip<24.1"}

SMOKE = (
    "import ctypes_safe, urllib_parse_backport as u, sys;"
    "r = u.parse_qs('q=common_term&utm_content=s;q=malicious_term');"
    "assert r == {'q': ['common_term'], 'utm_content': ['s;q=malicious_term']}, r;"
    "assert ctypes_safe.__version__ == u.__version__;"
    "assert 'site-packages' in u.__file__, u.__file__;"
    "print(sys.version.split()[0], u.__version__, u.__file__)"
)


def run(args, **kwargs):
    result = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True, **kwargs)
    if result.returncode != 0:
        raise RuntimeError("%s failed (%d):\n%s"
                           % (" ".join(args), result.returncode, result.stdout))
    return result.stdout


def build(outdir):
    run([sys.executable, "-m", "build", "--outdir", outdir, ROOT])
    wheels = glob.glob(os.path.join(outdir, "*.whl"))
    sdists = glob.glob(os.path.join(outdir, "*.tar.gz"))
    names = sorted(os.listdir(outdir))
    if len(wheels) != 1 or len(sdists) != 1 or len(names) != 2:
        raise RuntimeError("expected one wheel and one sdist, got %s" % names)
    if not wheels[0].endswith("-py2.py3-none-any.whl"):
        raise RuntimeError("wheel is not universal: %s" % wheels[0])
    return wheels[0], sdists[0]


def fresh_env(version, where):
    """A new environment whose pip is the one the interpreter itself bundles."""
    python = shutil.which("python" + version)
    if python is None:
        raise RuntimeError("python%s not found on PATH" % version)
    if version == "2.7":
        # 2.7 has no venv module: make a bare virtualenv, then let the
        # interpreter's own ensurepip seed it.
        run([sys.executable, "-m", "virtualenv", "--no-seed", "-p", python, where])
        run([os.path.join(where, "bin", "python"), "-m", "ensurepip"])
    else:
        run([python, "-m", "venv", where])
    return os.path.join(where, "bin", "python")


def check(version, wheel, sdist, workdir):
    lines = []
    env_python = fresh_env(version, os.path.join(workdir, "wheel-" + version))
    pip_version = run([env_python, "-m", "pip", "--version"]).split()[1]
    run([env_python, "-m", "pip", "install", "--no-index", "--disable-pip-version-check",
         wheel])
    smoke = run([env_python, "-c", SMOKE]).strip()
    lines.append("wheel  with own pip %-7s -> %s" % (pip_version, smoke))

    for label, target in (("sdist", sdist), ("source", ROOT)):
        env_python = fresh_env(version, os.path.join(workdir, label + "-" + version))
        run([env_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--upgrade", NEWEST_PIP.get(version, "pip")])
        pip_version = run([env_python, "-m", "pip", "--version"]).split()[1]
        run([env_python, "-m", "pip", "install", "--disable-pip-version-check", target])
        lines.append("%-6s with pip %-11s -> %s" % (label, pip_version,
                                                    run([env_python, "-c", SMOKE]).strip()))
    return lines


def main(versions):
    workdir = tempfile.mkdtemp(prefix="check-install-")
    try:
        wheel, sdist = build(os.path.join(workdir, "dist"))
        print("built", os.path.basename(wheel), "and", os.path.basename(sdist))
        with ThreadPoolExecutor(max_workers=3) as pool:
            futures = [(v, pool.submit(check, v, wheel, sdist, workdir)) for v in versions]
            failures = 0
            for version, future in futures:
                try:
                    for line in future.result():
                        print("python%-5s %s" % (version, line))
                except Exception as exc:  # report every interpreter, then fail
                    failures += 1
                    print("python%-5s FAILED: %s" % (version, exc))
        if failures:
            print("check_install: %d interpreter(s) failed" % failures)
            return 1
        print("check_install: %d interpreters, wheel + sdist + source tree each: OK"
              % len(versions))
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["3"]))
