"""The installers of legacy hosts, for tools/check_install.py.

* The wheel, from a directory with ``--no-index``, with pip 8.1.2 and 9.0.3
  on 2.7 and pip 9.0.1 on 3.6 (the pips of Ubuntu 16.04, CentOS 7's EPEL,
  Ubuntu 18.04), pip 18.1 on 3.7 (Debian 10), 20.0.2 on 3.8 (Ubuntu 20.04)
  and 20.3.4 on 3.9 (Debian 11).
* The sdist with pip 9.0.3, which ignores ``pyproject.toml`` and runs
  ``setup.py install`` with whatever setuptools is there: the oldest one
  setup.py supports (``MINIMUM_SETUPTOOLS``), Ubuntu 16.04's 20.7.0 (which
  installed "UNKNOWN-0.0.0" while the metadata was in setup.cfg), and the
  release before the minimum, which must stop with an error naming the
  minimum and the wheel, having installed nothing.
"""

import os
import re

from install_envs import (ROOT, InstallError, install_and_check, legacy_env, run, run_status,
                          site_packages, snapshot)

WHEEL_PIPS = (("2.7", "8.1.2"), ("2.7", "9.0.3"), ("3.6", "9.0.1"),
              ("3.7", "18.1"), ("3.8", "20.0.2"), ("3.9", "20.3.4"))
SDIST_PIP = "9.0.3"
#: setup.py's MINIMUM_SETUPTOOLS (checked): RHEL/CentOS 7's python-setuptools.
MINIMUM = "0.9.8"
#: Ubuntu 16.04's python-setuptools: the report of the silent "UNKNOWN" install.
UBUNTU_XENIAL_SETUPTOOLS = "20.7.0"
#: The release before the minimum, the first with a wheel on PyPI; it exists
#: as an sdist only, so pip 9 builds it from PyPI.
BELOW_MINIMUM = "0.9.7"
PYPI = "https://pypi.org/simple"


def minimum_setuptools():
    with open(os.path.join(ROOT, "setup.py")) as handle:
        found = re.search(r'^MINIMUM_SETUPTOOLS = "([^"]+)"$', handle.read(), re.M)
    if found is None or found.group(1) != MINIMUM:
        raise InstallError("setup.py's MINIMUM_SETUPTOOLS is %s, this check tests %s"
                           % (found and found.group(1), MINIMUM))
    return found.group(1)


def wheel_with_old_pip(version, pip, dist_dir, workdir):
    python = legacy_env(version, os.path.join(workdir, "pip%s-%s" % (pip, version)), pip, None,
                        os.path.join(workdir, "app-data"))
    result = install_and_check(python, ["--no-index", "--find-links", dist_dir,
                                        "cpython-security-backports"],
                               expect="dist-info", isolated=True)
    return ["wheel  air-gapped, pip %-11s -> %s" % (pip, result)]


def sdist_with_setuptools(setuptools, sdist, workdir):
    python = legacy_env("2.7", os.path.join(workdir, "setuptools-" + setuptools), SDIST_PIP,
                        setuptools, os.path.join(workdir, "app-data"))
    result = install_and_check(python, ["--no-index", sdist], expect="egg-info", isolated=True)
    return ["sdist  air-gapped, pip %s, setuptools %-6s -> %s"
            % (SDIST_PIP, setuptools, result)]


def sdist_below_minimum(sdist, workdir):
    minimum = minimum_setuptools()
    python = legacy_env("2.7", os.path.join(workdir, "setuptools-old"), SDIST_PIP, minimum,
                        os.path.join(workdir, "app-data"))
    run([python, "-m", "pip", "install", "--disable-pip-version-check", "--index-url", PYPI,
         "setuptools==" + BELOW_MINIMUM])
    found = run([python, "-c", "import setuptools; print(setuptools.__version__)"]).strip()
    if found != BELOW_MINIMUM:
        raise InstallError("could not install setuptools %s (got %s)" % (BELOW_MINIMUM, found))
    where = site_packages(python)
    before = snapshot(where)
    code, out = run_status([python, "-m", "pip", "install", "--disable-pip-version-check",
                            "--no-index", sdist])
    wheel = os.path.basename(sdist).replace(".tar.gz", "-py2.py3-none-any.whl")
    wanted = ["needs setuptools >= %s to build from source" % minimum,
              "environment has setuptools %s" % BELOW_MINIMUM, wheel]
    missing = [text for text in wanted if text not in out]
    if code == 0 or missing:
        raise InstallError("setuptools %s: exit %d, message lacks %s:\n%s"
                           % (BELOW_MINIMUM, code, missing, out))
    if snapshot(where) != before:
        raise InstallError("the failed install changed site-packages: %s"
                           % sorted(snapshot(where) ^ before))
    return ["sdist  pip %s, setuptools %s -> refused (exit %d): %s"
            % (SDIST_PIP, BELOW_MINIMUM, code,
               [line.strip() for line in out.splitlines() if "error:" in line][0])]


def legacy_tasks(versions, wheel, sdist, dist_dir, workdir):
    """``(version, function, args)`` for each legacy check whose interpreter is wanted."""
    tasks = [(version, wheel_with_old_pip, (version, pip, dist_dir, workdir))
             for version, pip in WHEEL_PIPS if version in versions]
    if "2.7" in versions:
        for setuptools in (MINIMUM, UBUNTU_XENIAL_SETUPTOOLS):
            tasks.append(("2.7", sdist_with_setuptools, (setuptools, sdist, workdir)))
        tasks.append(("2.7", sdist_below_minimum, (sdist, workdir)))
    return tasks
