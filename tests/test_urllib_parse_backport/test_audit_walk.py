"""The audit's walk of a tree: it reaches every file, however deep, follows a
link once, and lists what it cannot read, never drops it in silence.

Each run is a fresh ``python -m urllib_parse_backport --audit``; the long
walks have a time bound.
"""

import io
import os
import stat
import time

import pytest

from test_audit import audit, run
from test_audit_robust import QUERY_CODE


def test_a_tree_deeper_than_the_recursion_limit_is_walked_to_its_bottom(tmpdir):
    # 1,200 levels: os.walk recursed once per level before 3.12, and the audit
    # stopped with RecursionError (exit 3) without reading the file at the bottom.
    # Made and removed level by level: os.makedirs and shutil.rmtree recurse too.
    levels = [str(tmpdir)]
    for _ in range(1200):
        levels.append(os.path.join(levels[-1], "d"))
        os.mkdir(levels[-1])
    bottom = os.path.join(levels[-1], "app.py")
    with io.open(bottom, "w") as stream:
        stream.write(QUERY_CODE)
    tmpdir.join("top.py").write(QUERY_CODE)
    try:
        status, findings, err = audit(str(tmpdir))
    finally:
        os.remove(bottom)
        for level in reversed(levels[1:]):
            os.rmdir(level)
    assert status == 1, err
    assert sorted(os.path.basename(f["path"]) for f in findings) == ["app.py", "top.py"]


def _deep_tree(top, levels, remove=False):
    """Make (or remove) *top*/d/d/.../d, *levels* deep, with a parser at its bottom.

    Level by level from inside: past 4,096 bytes no path names the bottom."""
    here = os.getcwd()
    try:
        os.chdir(top)
        for _ in range(levels):
            if not remove:
                os.mkdir("d")
            os.chdir("d")
        if remove:
            os.remove("app.py")
            for _ in range(levels):
                os.chdir(os.pardir)
                os.rmdir("d")
        else:
            with io.open("app.py", "w") as stream:
                stream.write(QUERY_CODE)
    finally:
        os.chdir(here)


def test_a_tree_deeper_than_the_path_limit_is_listed_not_dropped(tmpdir):
    # 2,400 levels: the old walk took the level past 4,096 bytes for a file
    # (os.path.isdir swallowed ENAMETOOLONG) and said "0 files", exit 0, after
    # 82 s (os.path.realpath per directory made the walk quadratic).
    _deep_tree(str(tmpdir), 2400)
    try:
        start = time.time()
        status, out, err = run(str(tmpdir))
        took = time.time() - start
    finally:
        _deep_tree(str(tmpdir), 2400, remove=True)
    assert took < 10, took
    if status == 1:
        assert "app.py" in out
    else:
        assert status == 0, err
        listed = [line for line in out.splitlines() if line.startswith("  " + str(tmpdir))]
        assert len(listed) == 1 and listed[0].endswith(
            ": cannot tell whether it is a directory: File name too long"), out[-300:]


def test_symlinked_directories_are_followed_once(tmpdir):
    real = tmpdir.mkdir("real")
    real.join("app.py").write(QUERY_CODE)
    os.symlink(str(real), str(tmpdir.join("linked")))
    os.symlink(str(tmpdir), str(real.join("loop")))  # a loop: walked once
    outside = tmpdir.mkdir("outside")
    outside.join("lib.py").write(QUERY_CODE)
    tree = tmpdir.mkdir("tree")
    os.symlink(str(outside), str(tree.join("vendor")))
    status, findings, err = audit(str(tree), str(real))
    assert sorted(os.path.basename(f["path"]) for f in findings) == ["app.py", "lib.py"]
    # The loop points above its own directory: listed, not walked again.
    assert "%s: a link to %s, a directory above it: not followed" % (
        os.path.join(str(real), "loop"), os.path.realpath(str(tmpdir))) in err


@pytest.mark.skipif(not hasattr(os, "symlink") or os.sep != "/", reason="POSIX links")
def test_links_above_the_tree_or_into_the_kernels_views_are_not_walked(tmpdir):
    # A link to / made the audit list the whole filesystem (/proc included)
    # before reading a file: over a minute, and minutes more to parse /usr.
    tree = tmpdir.mkdir("tree")
    tree.join("app.py").write(QUERY_CODE)
    links = {"root": "/", "parent": "..", "proc": "/proc/self", "sys": "/sys"}
    for name, target in links.items():
        os.symlink(target, str(tree.join(name)))
    status, findings, err = audit(str(tree))
    assert [os.path.basename(f["path"]) for f in findings] == ["app.py"]
    reasons = sorted(line.split(": ", 3)[3] for line in err.splitlines()
                     if "not followed" in line)
    assert reasons == sorted([
        "a link to /, a directory above it: not followed",
        "a link to %s, a directory above it: not followed" % os.path.realpath(str(tmpdir)),
        "a link into /proc: not followed (no source lives there)",
        "a link into /sys: not followed (no source lives there)"])


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root can list any directory")
def test_unreadable_directories_are_listed(tmpdir):
    locked = tmpdir.mkdir("locked")
    locked.join("app.py").write(QUERY_CODE)
    os.chmod(str(locked), 0)
    try:
        status, findings, err = audit(str(tmpdir))
    finally:
        os.chmod(str(locked), stat.S_IRWXU)
    assert "locked: cannot list the directory" in err


def test_editable_installs_and_pth_entries_are_scanned_by_default(tmpdir):
    site = tmpdir.mkdir("site-packages")
    legacy = tmpdir.mkdir("legacy_src")
    legacy.join("legacy_app.py").write(QUERY_CODE)
    modern = tmpdir.mkdir("modern_src").mkdir("modern_app")
    modern.join("__init__.py").write(QUERY_CODE)
    site.join("legacy.pth").write(str(legacy) + "\nimport os\n")
    site.join("__editable___modern_0_1_finder.py").write(
        "MAPPING = {'modern_app': %r}\nNAMESPACES = {}\n" % (str(modern),))
    site.join("__editable__.modern-0.1.pth").write(
        "import __editable___modern_0_1_finder; __editable___modern_0_1_finder.install()\n")
    work = tmpdir.mkdir("work")
    paths = [str(site)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
    status, out, err = run("--json", cwd=str(work), env={"PYTHONPATH": os.pathsep.join(paths)})
    assert "legacy_app.py" in out and os.path.join("modern_app", "__init__.py") in out, err
