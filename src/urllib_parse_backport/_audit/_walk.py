"""Which files the audit reads: the paths given, or the application and its installed code.

Why: a dependency the interpreter imports must be read wherever it lives: in
a ``site-packages`` directory, behind a symlinked directory, or outside it,
named by a ``.pth`` file (``pip install -e``, old and new setuptools). A
directory that cannot be listed is reported, never passed over in silence.
"""

import ast
import errno
import os
import stat
import sys

#: Directories never walked into (a PATH named on the command line always is).
_PRUNED = frozenset(["__pycache__", "node_modules"])
#: The kernel's views of processes and devices: no source lives there, and
#: /proc alone holds a directory per process, task and file descriptor.
_PSEUDO = ("/proc", "/sys") if os.sep == "/" else ()
_SUFFIXES = (".py", ".pyw")
_SITE = ("site-packages", "dist-packages")
#: What ``os.stat`` of a link to nothing raises: no directory there.
_NO_TARGET = (errno.ENOENT, errno.ELOOP, errno.ENOTDIR)


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


def _key(path, info):
    """What identifies the directory or file *path* (its ``os.stat`` *info*): the
    device and inode number, or its real path where the system gives no inode
    number (2.7 on Windows reports 0)."""
    if info.st_ino:
        return (info.st_dev, info.st_ino)
    return os.path.normcase(os.path.realpath(path))


def _real_chain(path):
    """The keys of the real directory *path* and of each directory above it, as a
    chain ``(key, (parent key, ... None))``. Why: a link is "above" the directory
    that holds it when its target is on that chain; each directory walked adds
    its own key in constant time, so no path is resolved again per directory."""
    real = os.path.realpath(path)
    prefixes = [real]
    while os.path.dirname(prefixes[-1]) != prefixes[-1]:
        prefixes.append(os.path.dirname(prefixes[-1]))
    chain = None
    for prefix in reversed(prefixes):
        try:
            chain = (_key(prefix, os.stat(prefix)), chain)
        except OSError:  # cannot be searched: the chain goes on from what can
            continue
    return chain


def _on_chain(key, chain):
    while chain is not None:
        if chain[0] == key:
            return True
        chain = chain[1]
    return False


def _within(path, top):
    """Whether the real path *path* is *top* or inside it."""
    return path == top or path.startswith(top.rstrip(os.sep) + os.sep)


def _not_followed(path, key, chain):
    """Why the link *path* to a directory (whose key is *key*) is not walked
    into, or None; *chain* is the real chain of the directory holding it. Why: a
    link to that directory or one above it (``/``, ``..``) would walk that whole
    tree, the filesystem for ``/``, where the audit was asked for what is below;
    a link into ``/proc`` or ``/sys`` would walk a directory per process and
    device. A link anywhere else (a vendored directory, ``dist-packages``) is
    followed."""
    target = os.path.realpath(path)
    if _on_chain(key, chain):
        return "a link to %s, a directory above it: not followed" % (target,)
    for top in _PSEUDO:
        if _within(target, top):
            return "a link into %s: not followed (no source lives there)" % (top,)
    return None


def _entries(directory, unreadable):
    """The entries of *directory*, sorted: ``(name, info, is_link)``, *info* being
    the ``os.stat`` of what the name reaches, None for a link to nothing. An
    entry that cannot be examined is appended to *unreadable* with the reason,
    never taken for a file: past the system's path length limit (4,096 bytes on
    Linux) ``os.path.isdir`` answers False for a directory."""
    found = []
    for name in sorted(os.listdir(directory)):
        path, is_link = os.path.join(directory, name), False
        try:
            info = os.lstat(path)
            is_link = stat.S_ISLNK(info.st_mode)
            if is_link:
                info = os.stat(path)
        except OSError as error:
            if not is_link and error.errno == errno.ENOENT:  # removed since it was listed
                continue
            if not (is_link and error.errno in _NO_TARGET) and not name.endswith(_SUFFIXES):
                unreadable.append((path, "cannot tell whether it is a directory: %s"
                                   % (error.strerror or error,)))
                continue
            info = None  # a link to nothing, or a Python file: the read says why
        found.append((name, info, is_link))
    return found


def _tree(top, info, walked, unreadable):
    """``(directory, [(name, key)] of its Python files)`` for each directory under
    *top* (whose ``os.stat`` is *info*) not yet in *walked*, depth first in sorted
    order, without recursion. Why: before 3.12, ``os.walk`` recursed once per
    level, so a tree 1,000 directories deep stopped the audit with
    RecursionError; and each directory costs the same at any depth (no path
    is resolved per directory), so a deep tree takes time linear in its size."""
    key = _key(top, info)
    pending = [(top, key, (key, _real_chain(os.path.dirname(os.path.realpath(top)))))]
    while pending:
        directory, key, chain = pending.pop()
        if key in walked:  # reached again through a link
            continue
        walked.add(key)
        try:
            entries = _entries(directory, unreadable)
        except OSError as error:
            unreadable.append((directory, "cannot list the directory: %s"
                               % (error.strerror or error,)))
            continue
        files, subdirectories = [], []
        for name, info, is_link in entries:
            path = os.path.join(directory, name)
            if info is not None and stat.S_ISDIR(info.st_mode):
                if name in _PRUNED or name.startswith("."):
                    continue
                subkey = _key(path, info)
                why = _not_followed(path, subkey, chain) if is_link else None
                if why is not None:
                    unreadable.append((path, why))
                elif is_link:
                    subdirectories.append((path, subkey, (subkey, _real_chain(
                        os.path.dirname(os.path.realpath(path))))))
                else:
                    subdirectories.append((path, subkey, (subkey, chain)))
            elif name.endswith(_SUFFIXES):
                files.append((name, _key(path, info) if info is not None else path))
        yield directory, files
        pending.extend(reversed(subdirectories))


def source_files(paths, unreadable):
    """Each Python file under *paths* once (by device and inode), directories
    walked in sorted order and symlinked ones followed once (a loop is walked
    once), except links to a directory above them or into ``/proc``/``/sys``;
    hidden directories (``.git``, ``.tox``) are not walked into. Directories
    that cannot be listed, entries that cannot be examined and links not
    followed are appended to *unreadable* as ``(path, reason)``."""
    seen, walked = set(), set()
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:  # read as a file: the read says why it fails
            info = None
        if info is None or not stat.S_ISDIR(info.st_mode):
            key = path if info is None else _key(path, info)
            if key not in seen:
                seen.add(key)
                yield path
            continue
        for directory, files in _tree(path, info, walked, unreadable):
            for name, key in files:
                if key not in seen:
                    seen.add(key)
                    yield os.path.join(directory, name)
