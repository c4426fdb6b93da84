"""The project's metadata (its one source) and the build step that ships the ``.pth`` file.

The metadata lives here, not in ``setup.cfg``, because a setuptools older than
30.3 ignores ``setup.cfg``'s ``[metadata]`` and builds a distribution named
"UNKNOWN" version "0.0.0" that installs no package at all (Ubuntu 16.04's
20.7.0 does). Every setuptools from ``MINIMUM_SETUPTOOLS`` on reads this file;
an older one stops here with an error that names the minimum and the wheel.
tools/check_install.py builds and installs the sdist with the minimum and with
the release before it.

The ``.pth`` file of ``src/`` (``cpython_security_patch.pth``, which
tools/make_pth.py writes) goes to the root of site-packages, where ``site``
runs it at start-up: it starts every fix's switch with
``CPYTHON_SECURITY_PATCH``, a package's with its own variable
(``URLLIB_PARSE_BACKPORT_PATCH``, ...), and does nothing else.
"""

import io
import os
import re
import sys

NAME = "cpython-security-backports"

#: The oldest setuptools this sdist is tested with: 0.9.8, the oldest release
#: with a wheel on PyPI, and the python-setuptools of RHEL/CentOS 7.
MINIMUM_SETUPTOOLS = "0.9.8"

HERE = os.path.dirname(os.path.abspath(__file__))


def _release(version):
    """``'20.7.0'`` -> ``(20, 7, 0)``; an unreadable version counts as the oldest."""
    match = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", version or "")
    if match is None:
        return (0,)
    return tuple(int(part or 0) for part in match.groups())


def _require_setuptools():
    """Import setuptools, or stop with an error naming the minimum and the wheel."""
    try:
        import setuptools
    except ImportError:
        found = "no setuptools"
    else:
        found = "setuptools " + getattr(setuptools, "__version__", "(unknown version)")
        if _release(getattr(setuptools, "__version__", None)) >= _release(MINIMUM_SETUPTOOLS):
            return
    sys.exit(
        "error: {name} {version} needs setuptools >= {minimum} to build from source; this "
        "environment has {found}.\n"
        "Either upgrade it:  python -m pip install 'setuptools>={minimum}'\n"
        "or install the wheel instead (no build step; pip 8.1.2 or later):\n"
        "    python -m pip install {wheel}"
        .format(name=NAME, version=_version(), minimum=MINIMUM_SETUPTOOLS, found=found,
                wheel=_wheel_name()))


def _version():
    """``__version__`` from ``src/_cpython_security/_version.py``, without importing it."""
    path = os.path.join(HERE, "src", "_cpython_security", "_version.py")
    with io.open(path, encoding="utf-8") as handle:
        return re.search(r'^__version__ = "([^"]+)"$', handle.read(), re.M).group(1)


def _wheel_name():
    return "%s-%s-py2.py3-none-any.whl" % (NAME.replace("-", "_"), _version())


def _read(name):
    with io.open(os.path.join(HERE, name), encoding="utf-8") as handle:
        return handle.read()


_require_setuptools()

from setuptools import find_packages, setup  # noqa: E402 (after the version check)
from setuptools.command.build_py import build_py  # noqa: E402
from setuptools.command.sdist import sdist  # noqa: E402


def _pth_files():
    """The start-up file in ``src/`` (tools/make_pth.py writes it), copied to the top
    of the build tree."""
    return sorted(name for name in os.listdir(os.path.join(HERE, "src")) if name.endswith(".pth"))


def _package_data(packages):
    """Every package's ``py.typed`` and stubs: the ``*.pyi`` of each (sub)package."""
    return dict((package, ["py.typed", "*.pyi"]) for package in packages)


class build_py_with_pth(build_py):
    """build_py that starts from an empty build tree and also copies the ``.pth``
    files to its top.

    Why empty: the wheel packs the whole build tree, and a tree left by an
    earlier build of this checkout still holds modules moved or deleted since,
    which would be installed beside the new ones.
    """

    def run(self):
        if os.path.isdir(self.build_lib):
            import shutil
            shutil.rmtree(self.build_lib)
        build_py.run(self)
        for name in _pth_files():
            self.copy_file(os.path.join(HERE, "src", name), os.path.join(self.build_lib, name),
                           preserve_mode=0)

    def get_outputs(self, include_bytecode=1):
        return build_py.get_outputs(self, include_bytecode) + [
            os.path.join(self.build_lib, name) for name in _pth_files()]


class reproducible_sdist(sdist):
    """sdist whose ``.tar.gz`` depends on the files' contents alone.

    Why: a release is checked by rebuilding it; the stock archive records the
    build's clock (gzip header, directory times), the builder's user name,
    the umask's file modes and the file system's listing order, so two builds
    of one commit differ. Here members are sorted, owned by uid 0 with no
    names, mode 644 (755 where executable), and, with ``SOURCE_DATE_EPOCH``
    set, no time later than it, in the members or the gzip header.
    """

    def make_archive(self, base_name, format, root_dir=None, base_dir=None,
                     owner=None, group=None):
        if format != "gztar":
            return sdist.make_archive(self, base_name, format, root_dir, base_dir, owner, group)
        path = base_name + ".tar.gz"
        _write_tarball(path, root_dir or os.curdir, base_dir or os.curdir)
        return path


def _write_tarball(path, root_dir, base_dir):
    import gzip
    import tarfile
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    epoch = int(epoch) if epoch else None

    def normalize(info):
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        executable = info.isdir() or info.mode & 0o100
        info.mode = 0o755 if executable else 0o644
        info.mtime = int(info.mtime) if epoch is None else min(int(info.mtime), epoch)
        return info

    names = []
    for directory, folders, files in os.walk(os.path.join(root_dir, base_dir)):
        folders.sort()
        names.append(directory)
        names.extend(os.path.join(directory, name) for name in sorted(files))
    with open(path, "wb") as raw:
        packed = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=epoch or 0)
        try:
            archive = tarfile.open(fileobj=packed, mode="w", format=tarfile.PAX_FORMAT)
            try:
                for name in names:
                    archive.add(name, os.path.relpath(name, root_dir), recursive=False,
                                filter=normalize)
            finally:
                archive.close()
        finally:
            packed.close()


setup(
    name=NAME,
    version=_version(),
    description=("Backports of CPython's February 2021 security fixes (CVE-2021-23336 "
                 "parse_qs separator, CVE-2021-3177 ctypes repr) for Python 2.7 and 3.6+"),
    long_description=_read("README.md"),
    long_description_content_type="text/markdown",
    license="MIT",
    license_files=["LICENSE"],
    classifiers=[
        "Development Status :: 4 - Beta",
        "Intended Audience :: Developers",
        "Intended Audience :: System Administrators",
        "License :: OSI Approved :: MIT License",
        "Operating System :: OS Independent",
        "Programming Language :: Python :: 2",
        "Programming Language :: Python :: 2.7",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: 3.6",
        "Programming Language :: Python :: 3.7",
        "Programming Language :: Python :: 3.8",
        "Programming Language :: Python :: 3.9",
        "Programming Language :: Python :: 3.10",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
        "Topic :: Security",
        "Topic :: Internet :: WWW/HTTP",
        "Typing :: Typed",
    ],
    package_dir={"": "src"},
    # Each fix package of _cpython_security's registry, and _cpython_security:
    # what they share, and cpython-security-check.
    packages=find_packages("src"),
    entry_points={"console_scripts": [
        "cpython-security-check = _cpython_security._check:main"]},
    package_data=_package_data(find_packages("src")),
    include_package_data=False,
    zip_safe=False,
    python_requires=">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*, !=3.4.*, !=3.5.*",
    cmdclass={"build_py": build_py_with_pth, "sdist": reproducible_sdist},
)
