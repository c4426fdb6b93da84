"""Which installed distribution a file belongs to, from the metadata files installers leave.

Why: an operator fixes a finding by upgrading, patching or replacing a
distribution, so the audit report is grouped by it. Reading ``RECORD`` and
``installed-files.txt`` as files is fast and works on 2.7, where
``importlib.metadata`` does not exist, and imports nothing it reads about.
"""

import io
import os

_METADATA = (".dist-info", ".egg-info")


class Distributions(object):
    """Looks up the owner of a file in the metadata of the directories above it."""

    def __init__(self):
        self._indexes = {}  # directory -> ({file: owner}, {top-level name: owner}) or None

    def owner(self, path):
        """``(name, version)`` of the distribution that installed *path*, or None."""
        path = os.path.normcase(os.path.abspath(path))
        directory = os.path.dirname(path)
        while True:
            index = self._index(directory)
            if index is not None:
                files, top_level = index
                if path in files:
                    return files[path]
                top = os.path.relpath(path, directory).split(os.sep)[0]
                top = top[:-3] if top.endswith(".py") else top
                if top in top_level:
                    return top_level[top]
            parent = os.path.dirname(directory)
            if parent == directory:
                return None
            directory = parent

    def _index(self, directory):
        if directory not in self._indexes:
            self._indexes[directory] = _read_index(directory)
        return self._indexes[directory]


def _read_index(directory):
    """The files (and, for metadata without a file list, top-level names) of every
    distribution installed into *directory*; None when there is none."""
    try:
        entries = os.listdir(directory)
    except OSError:
        return None
    files, top_level, found = {}, {}, False
    for entry in sorted(entries):
        if not entry.endswith(_METADATA):
            continue
        found = True
        metadata = os.path.join(directory, entry)
        owner = _name_version(entry)
        listed = _lines(os.path.join(metadata, "RECORD"), metadata, directory, True)
        if not listed:
            listed = _lines(os.path.join(metadata, "installed-files.txt"), metadata, metadata)
        for path in listed:
            files.setdefault(path, owner)
        if not listed:
            for name in _lines(os.path.join(metadata, "top_level.txt"), metadata, None):
                top_level.setdefault(name, owner)
    return (files, top_level) if found else None


def _lines(path, metadata, base, record=False):
    """The entries of one metadata file: paths made absolute against *base* (None:
    kept as they are); ``RECORD`` rows are CSV, the path first."""
    if not os.path.isdir(metadata):  # a distutils PKG-INFO file named *.egg-info
        return []
    try:
        with io.open(path, encoding="utf-8", errors="replace") as stream:
            rows = stream.read().splitlines()
    except (IOError, OSError):
        return []
    entries = []
    for row in rows:
        if record:
            row = row.rsplit(",", 2)[0]
            if row.startswith('"') and row.endswith('"'):
                row = row[1:-1].replace('""', '"')
        row = row.strip()
        if not row:
            continue
        if base is not None:
            row = os.path.normcase(os.path.normpath(os.path.join(base, row)))
        entries.append(row)
    return entries


def _name_version(entry):
    """``('Django', '1.11.29')`` for ``Django-1.11.29.dist-info`` (or ``.egg-info``)."""
    stem = entry.rsplit(".", 1)[0]
    name, _, rest = stem.partition("-")
    version = rest.split("-")[0] or None
    return name, version
