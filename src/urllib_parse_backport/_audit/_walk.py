"""Which files the audit reads: the paths given, or the application and its installed code.

Why: a dependency the interpreter imports must be read wherever it lives: in
a ``site-packages`` directory, behind a symlinked directory, or outside it,
named by a ``.pth`` file (``pip install -e``, old and new setuptools). A
directory that cannot be listed is reported, never passed over in silence.
"""

import ast
import os
import sys

#: Directories never walked into (a PATH named on the command line always is).
_PRUNED = frozenset(["__pycache__", "node_modules"])
#: The kernel's views of processes and devices: no source lives there, and
#: /proc alone holds a directory per process, task and file descriptor.
_PSEUDO = ("/proc", "/sys") if os.sep == "/" else ()
_SUFFIXES = (".py", ".pyw")
_SITE = ("site-packages", "dist-packages")


def default_paths():
    """The current directory, each site-packages directory on ``sys.path``, and the
    directories their ``.pth`` files add (editable installs)."""
    paths = [os.getcwd()]
    for entry in sys.path:
        if os.path.basename(entry.rstrip(os.sep)) in _SITE and os.path.isdir(entry):
            paths.append(entry)
            paths.extend(path for path in pth_entries(entry) if path not in paths)
    return paths


def pth_entries(site):
    """The directories the ``.pth`` files in *site* name: their path lines, and the
    source directories of setuptools' ``__editable___*_finder.py`` mappings."""
    found = []
    for name in sorted(os.listdir(site)):
        path = os.path.join(site, name)
        if name.endswith(".pth"):
            for line in _read(path).splitlines():
                line = line.strip()
                if line and not line.startswith(("#", "import ", "import\t")):
                    found.append(os.path.normpath(os.path.join(site, line)))
        elif name.startswith("__editable__") and name.endswith("_finder.py"):
            found.extend(_editable_mapping(_read(path)))
    return [path for path in found if os.path.isdir(path) or os.path.isfile(path)]


def _read(path):
    try:
        with open(path, "rb") as stream:
            return stream.read(1024 * 1024).decode("utf-8", "replace")
    except (IOError, OSError):
        return u""


def _editable_mapping(source):
    """The paths of ``MAPPING = {'package': '/path/to/src/package'}`` in a finder."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    for node in tree.body:
        targets = getattr(node, "targets", None) or [getattr(node, "target", None)]
        value = getattr(node, "value", None)
        if any(getattr(target, "id", None) == "MAPPING" for target in targets) \
                and isinstance(value, ast.Dict):
            try:
                return [path for path in ast.literal_eval(value).values()]
            except ValueError:
                return []
    return []


def _walk(top, failed):
    """``os.walk(top, onerror=failed, followlinks=True)``, top-down, without
    recursion. Why: before 3.12, ``os.walk`` recursed once per level, so a
    tree 1,000 directories deep stopped the audit with RecursionError (and a
    hostile tree could hide a parser at its bottom that way). The caller may
    prune and reorder the subdirectory list, as with ``os.walk``."""
    pending = [top]
    while pending:
        directory = pending.pop()
        try:
            entries = os.listdir(directory)
        except OSError as error:
            failed(error)
            continue
        subdirectories, names = [], []
        for name in entries:
            is_directory = os.path.isdir(os.path.join(directory, name))
            (subdirectories if is_directory else names).append(name)
        yield directory, subdirectories, names
        pending.extend(os.path.join(directory, name) for name in reversed(subdirectories))


def _within(path, top):
    """Whether the real path *path* is *top* or inside it."""
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)


def _not_followed(path, real_directory):
    """Why the subdirectory *path* of *real_directory* is a symlink not to walk
    into, or None. Why: a link to a directory above it (``/``, ``..``) would
    walk that whole tree, the filesystem for ``/``, where the audit was asked
    for what is below; a link into ``/proc`` or ``/sys`` would walk a
    directory per process and device. A link anywhere else (a vendored
    directory, ``dist-packages``) is followed."""
    if not os.path.islink(path):
        return None
    target = os.path.realpath(path)
    if _within(real_directory, target):
        return "a link to %s, a directory above it: not followed" % (target,)
    for top in _PSEUDO:
        if _within(target, top):
            return "a link into %s: not followed (no source lives there)" % (top,)
    return None


def source_files(paths, unreadable):
    """Each Python file under *paths* once (by real path), directories walked in
    sorted order and symlinked ones followed once (a loop is walked once),
    except links to a directory above them or into ``/proc``/``/sys``; hidden
    directories (``.git``, ``.tox``) are not walked into. Directories that
    cannot be listed, and links not followed, are appended to *unreadable* as
    ``(path, reason)``."""
    seen, walked = set(), set()
    for path in paths:
        if not os.path.isdir(path):
            real = os.path.realpath(path)
            if real not in seen:
                seen.add(real)
                yield path
            continue

        def failed(error):
            unreadable.append((error.filename, "cannot list the directory: %s"
                               % (error.strerror or error,)))

        for directory, subdirectories, names in _walk(path, failed):
            real_directory = os.path.realpath(directory)
            if real_directory in walked:  # reached again through a link
                subdirectories[:] = []
                continue
            walked.add(real_directory)
            subdirectories[:] = sorted(name for name in subdirectories
                                       if name not in _PRUNED and not name.startswith("."))
            for name in list(subdirectories):
                why = _not_followed(os.path.join(directory, name), real_directory)
                if why is not None:
                    subdirectories.remove(name)
                    unreadable.append((os.path.join(directory, name), why))
            for name in sorted(names):
                key = os.path.join(real_directory, name)
                if name.endswith(_SUFFIXES) and key not in seen:
                    seen.add(key)
                    yield os.path.join(directory, name)
