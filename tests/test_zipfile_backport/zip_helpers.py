"""Shared data for the zipfile_backport tests: the stdlib's ``_ancestry``, bounded.

``zipfile.Path`` is 3.8's: on 2.7-3.7 :data:`HAS_PATH` is False and the
tests that browse an archive skip. The stock ``_ancestry`` may never stop:
:func:`walk` reads at most *limit* names of it.
"""

import io
import itertools
import zipfile

HAS_PATH = hasattr(zipfile, "Path")


def stdlib_ancestry():
    """The ``_ancestry`` ``zipfile.Path`` reads now (``zipfile._path``'s from 3.12)."""
    return vars(vars(zipfile).get("_path", zipfile))["_ancestry"]


def walk(path, limit=10):
    """At most *limit* names the current ``_ancestry`` yields for *path*."""
    return list(itertools.islice(stdlib_ancestry()(path), limit))


def archive(*names):
    """A ``ZipFile`` (written to memory, left open) holding each of *names*, its
    ``filename`` emptied as upstream's tests do (``str()`` of a Path joins it)."""
    zf = zipfile.ZipFile(io.BytesIO(), "w")
    for name in names:
        zf.writestr(name, b"content")
    zf.filename = ""
    return zf
