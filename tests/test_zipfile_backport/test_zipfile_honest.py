"""Honest archives browse the same with the fix as without it: ``zipfile.Path``'s
listing, directories and bytes, and the stock ``_ancestry``'s names for each
name that holds something besides slashes (where the two walks part, the
stock one never ends)."""

import pytest

import zip_helpers as helpers

NAMES = ["a.txt", "d/", "d/e.txt", "d/f/g.txt", "h/i/j/k.txt", "/abs.txt", "x//y.txt",
         "../up.txt", "sp ace/q?.txt", "u\u00e9/v.txt", "t/"]

pytestmark = pytest.mark.skipif(not helpers.HAS_PATH, reason="2.7-3.7 have no zipfile.Path")


def _tree(path, depth=0):
    """Every entry under *path*: ``(str, is_dir, bytes or None)``, depth first."""
    found = []
    for entry in sorted(path.iterdir(), key=str):
        is_dir = entry.is_dir()
        found.append((str(entry), is_dir, None if is_dir else entry.read_bytes()))
        if is_dir and depth < 5:
            found.extend(_tree(entry, depth + 1))
    return found


def test_honest_archives_browse_the_same(zipfile_unpatched):
    import zipfile
    zf = helpers.archive(*NAMES)
    stock = (_tree(zipfile.Path(zf)), sorted(zipfile.Path(zf).root.namelist()))
    assert len(stock[0]) >= 10
    zipfile_unpatched.patch(force=True)
    zf = helpers.archive(*NAMES)
    assert (_tree(zipfile.Path(zf)), sorted(zipfile.Path(zf).root.namelist())) == stock


@pytest.mark.parametrize("path", NAMES + ["a/b/c/d/e/f", "/b/d/", "x///y//", "a/"])
def test_the_walk_is_the_stock_one_for_honest_names(zipfile_unpatched, path):
    stock = helpers.walk(path)
    zipfile_unpatched.patch(force=True)
    assert helpers.walk(path) == stock
