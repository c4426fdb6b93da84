"""The fix of CVE-2024-8088 (gh-122905, in gh-123270's form): ``zipfile.Path``'s
walk up a member's name ends at a name of slashes alone.

``zipfile.Path`` lists the directories a member's name implies through
``_parents``, which takes all but the first name ``_ancestry`` yields:
the name, then each parent (``posixpath.split``), until the name is empty or
``'/'``. ``posixpath.split`` keeps a head of slashes as it is (``'//a'``
gives ``'//'``, and ``'//'`` gives ``'//'`` again), so before the fix a
member named ``//a`` makes ``_ancestry`` yield
``'//'`` for ever: ``Path(zf).iterdir()``, ``exists()``, ``joinpath()`` and
``namelist()`` of the ``CompleteDirs`` behind them never return.

gh-122905's first fix sanitized every name the class saw, which changed
the names an honest archive lists (Debian's first backport shipped it and
regressed); gh-123270 (in 3.13.0 and the 3.8-3.12 security releases that
followed it) replaced it with the surgical change carried here: the loop
runs while the name holds something other than slashes
(``while path.rstrip(posixpath.sep)``). A loop's condition cannot be put
around the original: the replacement is gh-123270's ``_ancestry``, which
yields what the stock one does up to the first name of slashes alone and
stops there.

``zipfile.Path`` is 3.8's (bpo-36315): 2.7-3.7 have no ``_ancestry`` and
nothing to fix; 3.12 moved it into ``zipfile._path``.
"""

import posixpath

from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "ancestry"]


def ancestry(path):
    """
    Given a path with elements separated by
    posixpath.sep, generate all elements of that path.

    >>> list(ancestry('b/d'))
    ['b/d', 'b']
    >>> list(ancestry('/b/d/'))
    ['/b/d', '/b']
    >>> list(ancestry('b/d/f/'))
    ['b/d/f', 'b/d', 'b']
    >>> list(ancestry('b'))
    ['b']
    >>> list(ancestry(''))
    []

    Multiple separators are treated like a single.

    >>> list(ancestry('//b//d///f//'))
    ['//b//d///f', '//b//d', '//b']
    """
    path = path.rstrip(posixpath.sep)
    while path.rstrip(posixpath.sep):  # gh-123270: not ``path and path != posixpath.sep``
        yield path
        path, tail = posixpath.split(path)


def _place(module):
    """``(name relative to zipfile, the stock function)`` of ``_ancestry``, or None.

    3.8-3.11 define it in ``zipfile`` itself; 3.12 moved ``Path`` into the
    ``zipfile._path`` package (which ``zipfile`` imports), where ``_parents``
    reads it; 2.7-3.7 have no ``zipfile.Path`` and none."""
    for prefix, namespace in (("", module), ("_path.", vars(module).get("_path"))):
        found = getattr(namespace, "__dict__", {}).get("_ancestry")
        if callable(found):
            return prefix + "_ancestry", found
    return None


def needs_fix(module):
    """Whether ``zipfile``'s (*module*) ``_ancestry`` goes on at a name of slashes
    (gh-122905): on ``'//a'`` the fixed one yields ``'//a'`` and stops, the stock one
    goes on with ``'//'``; at most three names are read."""
    place = _place(module)
    if place is None:
        return False
    found = []
    for name in place[1]("//a"):
        found.append(name)
        if len(found) == 3:
            break
    return found != ["//a"]


def replacements(module):
    """``{"_ancestry" or "_path._ancestry": new}``: gh-123270's function, a function
    of its own (``unpatch()`` finds bindings by identity) under the stock one's names."""
    place = _place(module)
    if place is None:
        return {}
    name, original = place
    copy = type(ancestry)(ancestry.__code__, ancestry.__globals__, "_ancestry")
    return {name: named_as(copy, original, module=True)}
