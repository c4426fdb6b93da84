"""gh-122905's and gh-123270's own tests, with the fix in force.

Mirrors CPython's ``test_zipfile._path.test_path.TestPath.test_malformed_paths``
in gh-123270's form (names with leading slashes are not listed, ``..`` is a
name like any other; gh-122905's first form listed them sanitized), and the
doctest gh-123270 added to ``_ancestry`` ("Multiple separators are treated
like a single"), with its other doctest cases, through the module's own
``_ancestry``.
"""

import pytest

import zip_helpers as helpers


def test_cpython_malformed_paths(zipfile_fixed):
    zf = helpers.archive("/one-slash.txt", "//two-slash.txt", "../parent.txt")
    root = zipfile_fixed.Path(zf)
    assert list(map(str, root.iterdir())) == ["../"]
    assert root.joinpath("..").joinpath("parent.txt").read_bytes() == b"content"


@pytest.mark.parametrize("path, expected", [
    ("b/d", ["b/d", "b"]),
    ("/b/d/", ["/b/d", "/b"]),
    ("b/d/f/", ["b/d/f", "b/d", "b"]),
    ("b", ["b"]),
    ("", []),
    ("//b//d///f//", ["//b//d///f", "//b//d", "//b"]),
])
def test_cpython_ancestry_doctest(zipfile_fixed, path, expected):
    assert helpers.walk(path) == expected


@pytest.mark.parametrize("name", ["//a", "///a", "//a/b", "a", "/a", "//"])
def test_a_member_named_with_leading_slashes_is_listed_in_the_end(zipfile_fixed, name):
    # The stock walk yields '//' for ever on the first four (3.8.18-3.12.1).
    zf = helpers.archive(name, "b/c")
    root = zipfile_fixed.Path(zf)
    listed = sorted(map(str, root.iterdir()))
    assert "b/" in listed
    assert root.joinpath("b").joinpath("c").read_bytes() == b"content"


def test_the_probe_says_what_the_stock_walk_does(zipfile_unpatched):
    lacks = zipfile_unpatched.status()["fixes"]["CVE-2024-8088"]["lacks"]
    if not helpers.HAS_PATH:
        assert lacks is False
        return
    stock = helpers.walk("//a", limit=3)
    assert lacks is (stock != ["//a"])
    if stock != ["//a"]:
        assert stock == ["//a", "//", "//"]
    zipfile_unpatched.patch()
    assert helpers.walk("//a", limit=3) == ["//a"]
