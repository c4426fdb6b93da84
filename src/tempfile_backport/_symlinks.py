"""The fix: ``TemporaryDirectory``'s cleanup resets modes without following symlinks
(CVE-2023-6597, gh-91133).

From 3.8 (bpo-26660) ``TemporaryDirectory`` cleans up a tree whose entries
it may not remove: on a ``PermissionError`` its ``_rmtree`` resets the mode
of the entry (and of its directory) to ``0o700`` with ``os.chmod`` (and
``os.chflags(path, 0)`` where it exists), then tries again. ``os.chmod``
follows a symbolic link: a link that a program unpacked, or another user
planted, into a temporary directory whose cleanup fails on it has the mode
of its *target* changed, anywhere the process may write it. gh-91133
(3.8.19, 3.9.19 and 3.10.14; 3.12.1 has it, 3.11.7 lacks it) resets modes through
``_resetperms``, which passes ``follow_symlinks=False`` where the platform
can, and otherwise leaves a link alone.

The replacement is upstream's ``_rmtree`` of that change, as its 3.11
backport has it (3.10-3.11: ``ignore_errors``; 3.8-3.9 call it with the
name alone, and the keyword keeps its default there), with upstream's
``_resetperms`` and ``_dont_follow_symlinks`` beside it. It reads the
module's own ``_os`` and ``_shutil`` when called, as the stock function
reads its globals. 2.7 has no ``TemporaryDirectory``; 3.6 and 3.7 clean up
with ``shutil.rmtree`` alone and reset no mode: nothing to fix there.
"""

__all__ = ["needs_fix", "replacements"]


def needs_fix(module):
    """Whether the module's ``TemporaryDirectory._rmtree`` resets modes through a
    helper of its own that follows links: False where the class has no ``_rmtree``.

    Read from which helper the cleanup has, not from behaviour: the flaw needs
    a ``PermissionError`` from the file system, which a probe could provoke only
    by writing files, and never as root. The stock 3.8-3.11.7 code nests its
    helper (``resetperms``) in the cleanup; gh-91133 added the module's
    ``_resetperms``, as every later release and the distributions that carry
    the fix (Debian's 3.11.2, its PyPy 3.9) have it."""
    temporary_directory = getattr(module, "TemporaryDirectory", None)
    if temporary_directory is None or "_rmtree" not in vars(temporary_directory):
        return False
    return not callable(getattr(module, "_resetperms", None))


def replacements(module):
    """``{"TemporaryDirectory._rmtree": upstream's classmethod}`` for *module*
    (where it has the fix already, a call of its own); ``{}`` where the class
    has no ``_rmtree`` (2.7, 3.6, 3.7)."""
    temporary_directory = getattr(module, "TemporaryDirectory", None)
    if temporary_directory is None or "_rmtree" not in vars(temporary_directory):
        return {}
    original = vars(temporary_directory)["_rmtree"].__func__
    if not needs_fix(module):  # patch(force=True) where the fix is in: the fixed original
        def fixed_original(cls, *args, **kwargs):
            return original(cls, *args, **kwargs)

        fixed_original.__doc__ = original.__doc__
        fixed_original.__qualname__ = original.__qualname__
        fixed_original.__name__ = original.__name__
        return {"TemporaryDirectory._rmtree": classmethod(fixed_original)}

    def _dont_follow_symlinks(func, path, *args):
        # gh-91133: pass follow_symlinks=False, unless not supported on this platform.
        _os = module._os
        if func in _os.supports_follow_symlinks:
            func(path, *args, follow_symlinks=False)
        elif _os.name == "nt" or not _os.path.islink(path):
            func(path, *args)

    def _resetperms(path):
        _os = module._os
        try:
            chflags = _os.chflags
        except AttributeError:
            pass
        else:
            _dont_follow_symlinks(chflags, path, 0)
        _dont_follow_symlinks(_os.chmod, path, 0o700)

    def _rmtree(cls, name, ignore_errors=False):
        _os = module._os

        def onerror(func, path, exc_info):
            if issubclass(exc_info[0], PermissionError):
                try:
                    if path != name:
                        _resetperms(_os.path.dirname(path))
                    _resetperms(path)

                    try:
                        _os.unlink(path)
                    # PermissionError is raised on FreeBSD for directories
                    except (IsADirectoryError, PermissionError):
                        cls._rmtree(path, ignore_errors=ignore_errors)
                except FileNotFoundError:
                    pass
            elif issubclass(exc_info[0], FileNotFoundError):
                pass
            else:
                if not ignore_errors:
                    raise

        module._shutil.rmtree(name, onerror=onerror)

    _rmtree.__doc__ = original.__doc__
    _rmtree.__qualname__ = original.__qualname__
    return {"TemporaryDirectory._rmtree": classmethod(_rmtree)}
