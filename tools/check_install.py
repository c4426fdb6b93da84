"""Build the distributions once and install them for real, the ways users do.

Usage: ``python tools/check_install.py 2.7 3.6 ... 3.13`` (interpreters found
as ``pythonX.Y`` on PATH). Every installation must import both packages, parse
the attack query safely, activate at start-up through its ``.pth`` file, and
``pip uninstall`` must remove every file it added, the ``.pth`` files included.

* ``wheel``: each interpreter's bundled pip installs the wheel with
  ``--no-index --find-links`` from a directory of files (an air-gapped host);
* ``sdist``: the newest pip each interpreter supports builds the sdist
  (PEP 517: setuptools 44 on 2.7, the latest elsewhere);
* ``readme``: on 2.7 and 3.13, the README's commands, as written, in a fresh
  copy of the repository;
* ``legacy`` (tools/legacy_installs.py): the wheel with pip 8.1.2 and 9.0.3 on
  2.7, 9.0.1 on 3.6, 18.1 on 3.7, 20.0.2 on 3.8, 20.3.4 on 3.9; the sdist with
  pip 9.0.3 (no PEP 517) and the oldest setuptools setup.py supports, Ubuntu
  16.04's 20.7.0, and the release before the oldest, which must stop with an
  error naming the minimum.
"""

from __future__ import print_function

import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from install_envs import (NAME, ROOT, InstallError, fresh_env, install_and_check, run,
                          run_status, stdlib_lacks_a_fix)
from legacy_installs import legacy_tasks

#: The newest pip each old interpreter can run; others take the latest.
NEWEST_PIP = {"2.7": "pip<21", "3.6": "pip<22", "3.7": "pip<24.1"}
#: Where the README's commands must work as written.
README_VERSIONS = ("2.7", "3.13")


def build(source, outdir):
    """One wheel and one sdist, whose metadata names the project (never UNKNOWN)."""
    run([sys.executable, "-m", "build", "--outdir", outdir, source])
    wheels = glob.glob(os.path.join(outdir, "*.whl"))
    sdists = glob.glob(os.path.join(outdir, "*.tar.gz"))
    names = sorted(os.listdir(outdir))
    if len(wheels) != 1 or len(sdists) != 1 or len(names) != 2:
        raise InstallError("expected one wheel and one sdist, got %s" % names)
    if not wheels[0].endswith("-py2.py3-none-any.whl"):
        raise InstallError("wheel is not universal: %s" % wheels[0])
    with tarfile.open(sdists[0]) as sdist:
        member = [m for m in sdist.getnames() if m.count("/") == 1 and m.endswith("/PKG-INFO")]
        pkg_info = sdist.extractfile(member[0]).read().decode("utf-8")
    if "\nName: %s\n" % NAME not in pkg_info:
        raise InstallError("sdist PKG-INFO does not name %s" % NAME)
    return wheels[0], sdists[0]


def check_wheel(version, dist_dir, workdir):
    python = fresh_env(version, os.path.join(workdir, "wheel-" + version))
    pip = run([python, "-m", "pip", "--version"]).split()[1]
    # Only the directory: no index, no configured find-links.
    result = install_and_check(python, ["--no-index", "--find-links", dist_dir, NAME],
                               expect="dist-info", isolated=True)
    return ["wheel  air-gapped, own pip %-7s -> %s" % (pip, result)]


def check_sdist(version, sdist, workdir):
    python = fresh_env(version, os.path.join(workdir, "sdist-" + version))
    run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--upgrade", NEWEST_PIP.get(version, "pip")])
    pip = run([python, "-m", "pip", "--version"]).split()[1]
    result = install_and_check(python, [sdist])
    return ["sdist  with pip %-18s -> %s" % (pip, result)]


def readme_commands():
    """The indented command block under the README's "Install and run" heading."""
    with open(os.path.join(ROOT, "README.md")) as handle:
        text = handle.read()
    section = text.split("\n## Install and run\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"\n\n((?:    \S.*\n)+)", section)
    return [shlex.split(line) for line in block.group(1).splitlines()]


def fresh_clone(where):
    """The files a clone would have (tracked, and untracked but not ignored), or
    outside git the tree without build products: builds never write to ROOT,
    so tox may run meanwhile."""
    if not os.path.exists(os.path.join(ROOT, ".git")):
        shutil.copytree(ROOT, where, ignore=shutil.ignore_patterns(
            ".tox", ".venv-tooling", "build", "dist", "*.egg-info", "__pycache__"))
        return where
    listing = subprocess.check_output(
        ["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
    for name in listing.decode("utf-8").split("\0"):
        if name and os.path.isfile(os.path.join(ROOT, name)):
            target = os.path.join(where, name)
            if not os.path.isdir(os.path.dirname(target)):
                os.makedirs(os.path.dirname(target))
            shutil.copy2(os.path.join(ROOT, name), target)
    return where


def check_readme(version, workdir):
    """Run the README's commands in a fresh copy, with the environment's own pip."""
    env_dir = os.path.join(workdir, "readme-" + version)
    python = fresh_env(version, env_dir)
    clone = fresh_clone(os.path.join(workdir, "clone-" + version))
    environ = dict(os.environ, PATH=os.path.dirname(python) + os.pathsep + os.environ["PATH"])
    for name in ("URLLIB_PARSE_BACKPORT_PATCH", "CTYPES_SAFE_PATCH",
                 "HTTP_COOKIES_BACKPORT_PATCH", "CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP"):
        environ.pop(name, None)
    commands = readme_commands()
    if [words[:2] for words in commands] != [
            ["pip", "install"], ["CPYTHON_SECURITY_PATCH=1", "cpython-security-check"]]:
        raise InstallError("README's commands changed: %s" % commands)
    run(commands[0], cwd=clone, env=environ)
    variable, _, value = commands[1][0].partition("=")
    code, out = run_status(commands[1][1:], cwd=clone, env=dict(environ, **{variable: value}))
    if code != 0 or "verdict: safe" not in out:
        raise InstallError("%s exited %d:\n%s" % (" ".join(commands[1]), code, out))
    # Without the switch: exposed wherever the interpreter lacks a fix.
    exposed = stdlib_lacks_a_fix(python)
    bare, out = run_status(commands[1][1:], cwd=clone, env=environ)
    if bare not in (0, 1) or (exposed and bare != 1):
        raise InstallError("without %s it exited %d:\n%s" % (variable, bare, out))
    return ["readme %s -> exit %d, %d without %s"
            % (" && ".join(" ".join(words) for words in commands), code, bare, variable)]


def timed(task, *args):
    start = time.time()
    lines = task(*args)
    return time.time() - start, lines


def main(versions):
    workdir = tempfile.mkdtemp(prefix="check-install-")
    try:
        dist_dir = os.path.join(workdir, "dist")
        wheel, sdist = build(fresh_clone(os.path.join(workdir, "clone")), dist_dir)
        print("built", os.path.basename(wheel), "and", os.path.basename(sdist))
        tasks = []
        for version in versions:
            tasks.append((version, check_wheel, (version, dist_dir, workdir)))
            tasks.append((version, check_sdist, (version, sdist, workdir)))
            if version in README_VERSIONS:
                tasks.append((version, check_readme, (version, workdir)))
        tasks.extend(legacy_tasks(versions, wheel, sdist, dist_dir, workdir))
        failures = 0
        with ThreadPoolExecutor(max_workers=3) as pool:
            futures = [(version, pool.submit(timed, task, *args))
                       for version, task, args in tasks]
            for version, future in futures:
                try:
                    seconds, lines = future.result()
                    for line in lines:
                        print("python%-5s %3.0fs %s" % (version, seconds, line))
                except Exception as exc:  # report every check, then fail
                    failures += 1
                    print("python%-5s FAILED: %s" % (version, exc))
        if failures:
            print("check_install: %d of %d checks failed" % (failures, len(tasks)))
            return 1
        print("check_install: %d checks on %d interpreters: OK" % (len(tasks), len(versions)))
        return 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["3"]))
