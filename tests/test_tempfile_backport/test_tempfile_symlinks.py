"""CVE-2023-6597 (gh-91133): ``TemporaryDirectory``'s cleanup never changes the mode
of a symbolic link's target.

Upstream's test (``test_tempfile.TestTemporaryDirectory.test_cleanup_with_symlink_modes``)
is ported as it is: it removes read, write and search rights from the temporary
directory so that its cleanup meets a ``PermissionError``. A process running as
root meets none (root's rights ignore modes), so there the stock code passes it
too. The attacker's test is the same event without the file system's help: the
cleanup's own error handler is told that removing the link was refused, as it is
for any user but root, and the link's target must keep its mode.
"""

import os
import stat
import sys
import tempfile

import pytest

import tempfile_backport

pytestmark = pytest.mark.skipif(
    not hasattr(tempfile, "TemporaryDirectory") or sys.version_info < (3, 8),
    reason="2.7 has no TemporaryDirectory; 3.6 and 3.7 reset no mode in its cleanup")

LABEL = "tempfile.TemporaryDirectory._rmtree"
ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _claims_what_it_cannot():
    """Whether ``os`` lists ``chmod`` as taking ``follow_symlinks=False`` and then
    refuses it (PyPy 3.9 on Linux): there upstream's cleanup passes the flag and the
    call raises NotImplementedError, out of the cleanup, leaving the target alone."""
    if os.chmod not in getattr(os, "supports_follow_symlinks", ()):
        return False
    probe = tempfile.mkdtemp()
    try:
        link = os.path.join(probe, "link")
        os.symlink(os.path.join(probe, "missing"), link)
        try:
            os.chmod(link, 0o700, follow_symlinks=False)
        except NotImplementedError:
            return True
        return False
    finally:
        tempfile._shutil.rmtree(probe)


#: The fixed cleanup's outcome on a refused link: the error it lets out, if any.
FIXED_RAISES = NotImplementedError if _claims_what_it_cannot() else None


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


class _RefusedOnce(object):
    """A stand-in for ``tempfile``'s ``shutil``: its ``rmtree`` first reports that
    removing *link* was refused (``PermissionError``, as the system answers a user
    without write rights on the directory), then removes the tree as ``shutil``
    does, with the same error handler."""

    def __init__(self, real, link):
        self.real, self.link = real, link

    def rmtree(self, path, onerror=None, **kwargs):
        if self.link is not None and onerror is not None:
            link, self.link = self.link, None
            try:
                raise PermissionError(13, "Permission denied", link)
            except PermissionError:
                onerror(os.unlink, link, sys.exc_info())
        return self.real.rmtree(path, onerror=onerror, **kwargs)


def cleanup_refused_on_a_link(target, mode=0o600):
    """A ``TemporaryDirectory`` holding a link to *target* (mode *mode*), cleaned up
    while removing the link is refused once: the target's mode after, whether the
    directory is gone, and the exception the cleanup raised (None)."""
    os.chmod(target, mode)
    directory = tempfile.TemporaryDirectory()
    link = os.path.join(directory.name, "symlink")
    os.symlink(target, link)
    real, raised = tempfile._shutil, None
    tempfile._shutil = _RefusedOnce(real, link)
    try:
        directory.cleanup()
    except Exception as exc:
        raised = type(exc)
    finally:
        tempfile._shutil = real
    gone = not os.path.exists(directory.name)
    if not gone:
        real.rmtree(directory.name)
    return mode_of(target), gone, raised


@pytest.fixture
def target(tmp_path):
    path = tmp_path / "outside"
    path.write_bytes(b"not the temporary directory's")
    return str(path)


@pytest.fixture
def target_dir(tmp_path):
    path = tmp_path / "outside_dir"
    path.mkdir()
    return str(path)


def test_the_probe_says_what_the_stock_cleanup_does(target):
    # The stock cleanup of 3.8.18-3.11.7 sets the link's target to 0o700.
    changed = cleanup_refused_on_a_link(target)[0] != 0o600
    assert tempfile_backport.is_vulnerable() is changed


@pytest.mark.parametrize("which", ["file", "dir"])
def test_the_fixed_cleanup_leaves_a_links_target_alone(which, target, target_dir):
    tempfile_backport.patch(force=True)
    path = target if which == "file" else target_dir
    assert cleanup_refused_on_a_link(path, 0o640) == (
        (0o640, True, None) if FIXED_RAISES is None else (0o640, False, FIXED_RAISES))


def test_patch_binds_the_cleanup_where_it_is_missing():
    original = vars(tempfile.TemporaryDirectory)["_rmtree"]
    report = tempfile_backport.patch()
    assert report.changed == ([LABEL] if tempfile_backport.is_vulnerable() else [])
    tempfile_backport.unpatch()
    assert vars(tempfile.TemporaryDirectory)["_rmtree"] is original


def test_honest_trees_are_removed_as_the_stock_removes_them(tmp_path):
    # Links inside and outside, read-only files and directories, nested: gone, and
    # the targets outside keep their modes.
    tempfile_backport.patch(force=True)
    outside = tmp_path / "kept"
    outside.write_bytes(b"x")
    os.chmod(str(outside), 0o604)
    with tempfile.TemporaryDirectory() as name:
        nested = os.path.join(name, "a", "b")
        os.makedirs(nested)
        for index in range(20):
            path = os.path.join(nested, "f%d" % index)
            with open(path, "wb") as stream:
                stream.write(b"data")
            os.chmod(path, 0o400)
        os.symlink(str(outside), os.path.join(name, "out"))
        os.symlink(nested, os.path.join(name, "in"))
        os.chmod(nested, 0o500)
    assert not os.path.exists(name) and mode_of(str(outside)) == 0o604


# Upstream's test, as gh-91133 added it (the subtests are parameters here).
@pytest.mark.parametrize("mode", [mode << 6 for mode in range(8)], ids=oct)
@pytest.mark.parametrize("patched", [True, False], ids=["patched", "stock"])
def test_cleanup_with_symlink_modes(mode, patched, tmp_path):
    if patched:
        tempfile_backport.patch(force=True)
    elif tempfile_backport.is_vulnerable() and not ROOT:
        pytest.skip("the stock cleanup lacks the fix: it changes the targets' modes")
    file1 = str(tmp_path / "file1")
    open(file1, "wb").close()
    dir1 = str(tmp_path / "dir1")
    os.mkdir(dir1)

    def test(target, target_is_directory):
        d1 = tempfile.TemporaryDirectory()
        symlink = os.path.join(d1.name, "symlink")
        os.symlink(target, symlink, target_is_directory=target_is_directory)
        try:
            os.chmod(symlink, mode, follow_symlinks=False)
        except (NotImplementedError, OSError):
            pass
        try:
            os.chmod(symlink, mode)
        except FileNotFoundError:
            pass
        os.chmod(d1.name, mode)
        d1.cleanup()
        assert not os.path.exists(d1.name)

    test("nonexisting", target_is_directory=False)
    test("nonexisting", target_is_directory=True)
    os.chmod(file1, mode)
    old_mode = os.stat(file1).st_mode
    test(file1, target_is_directory=False)
    assert os.stat(file1).st_mode == old_mode
    os.chmod(dir1, mode)
    old_mode = os.stat(dir1).st_mode
    test(dir1, target_is_directory=True)
    assert os.stat(dir1).st_mode == old_mode
    os.chmod(dir1, 0o700)
