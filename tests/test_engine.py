"""The shared engine, through every package on it: what unpatch() leaves is what was there.

Each package's own folder tests its fixes; here the engine's promises are checked
once for all of them, from the registry rows (``internals.ENGINE_PACKAGES``), so a
new fix gets these checks by its row.
"""

import sys

import pytest

from internals import ENGINE_PACKAGES, shared_registry


def _holders(package):
    """Every namespace a fix of *package* binds in (module dicts and classes' own)."""
    found = []
    for fix in shared_registry.fixes_of(package):
        try:
            __import__(fix.module)
        except ImportError:  # a module this interpreter does not ship
            continue
        module = sys.modules[fix.module]
        paths = __import__(fix.fix, None, None, ("replacements",)).replacements(module)
        for path in paths:
            owner = path.rpartition(".")[0]
            holder = vars(module)[owner] if owner else module
            if all(holder is not each for each in found):
                found.append(holder)
    return found


def _snapshot(holders):
    return [dict((key, id(value)) for key, value in list(vars(holder).items()))
            for holder in holders]


@pytest.mark.parametrize("package", ENGINE_PACKAGES)
def test_unpatch_leaves_every_namespace_as_it_found_it(package):
    # A method a fix adds where the class only inherited one (Morsel.__ior__ on 3.9+)
    # is deleted again, not left as a copy of the inherited one.
    face = __import__(package)
    face.unpatch()
    holders = _holders(package)
    before = _snapshot(holders)
    report = face.patch(force=True)
    if not holders:  # a stdlib module this interpreter lacks (2.7: ipaddress)
        assert not report.changed and not face.is_patched()
        return
    assert report.changed and face.is_patched()
    assert _snapshot(holders) != before
    face.unpatch()
    assert not face.is_patched()
    assert _snapshot(holders) == before


@pytest.mark.parametrize("package", ENGINE_PACKAGES)
def test_status_reads_each_fix_from_the_module_as_it_is(package):
    face = __import__(package)
    face.unpatch()
    try:
        face.patch(force=True)
        info = face.status()
        assert sorted(info["fixes"]) == sorted(fix.cve for fix in
                                               shared_registry.fixes_of(package))
        for cve, entry in info["fixes"].items():
            # A copy an earlier test imported (python-future's) may stay exposed: a fix
            # module that cannot apply to it leaves it so (tests/test_stdlib_copies*).
            assert entry["exposed"] is _copy_exposed(entry), (cve, entry)
        assert face.patch(force=True) is face.patch()  # in force: the same report
    finally:
        face.unpatch()
    info = face.status()
    for cve, entry in info["fixes"].items():
        assert entry["state"] in ("not patched", "not in this interpreter")
        assert entry["exposed"] is (entry["lacks"] or _copy_exposed(entry))


def _copy_exposed(entry):
    """Whether a copy of the fix's module (imported in this process) is exposed."""
    return any(copy["exposed"] for copy in entry.get("copies", {}).values())


@pytest.mark.parametrize("package", ENGINE_PACKAGES)
def test_every_function_patch_binds_keeps_a_hashable_code_object(package):
    # A code object hashes its constants; a checked copy that held an unhashable one
    # (2.7's is_plain, a bound method of a dict) made hash(code) raise, and with it any
    # set lookup of a frame's code: status() in a signal handler failed (issue 53).
    api = __import__(package)
    holders = _holders(package)
    if not holders:
        pytest.skip("this interpreter ships no module of %s: nothing to bind" % package)
    api.patch(force=True)
    try:
        codes = [value.__code__ for holder in holders for value in list(vars(holder).values())
                 if hasattr(value, "__code__")]
        assert codes
        for code in codes:
            hash(code)
    finally:
        api.unpatch()


@pytest.mark.parametrize("package", ENGINE_PACKAGES)
def test_a_fix_with_nothing_to_bind_where_it_is_lacking_is_exposed(package, monkeypatch):
    # A fix module finds none of the stock code it knows (a distributor's edit): its
    # replacements() is empty. Before: status() counted nothing bound as in effect
    # and said "patched", not exposed, where the interpreter lacks the fix.
    face = __import__(package)
    face.unpatch()
    before = face.status()["fixes"]
    lacking = [fix for fix in shared_registry.fixes_of(package)
               if before[fix.cve]["lacks"]
               and before[fix.cve]["state"] != "not in this interpreter"]
    if not lacking:
        pytest.skip("this interpreter lacks no fix of %s" % package)
    for fix in lacking:
        monkeypatch.setattr(__import__(fix.fix, None, None, ("replacements",)),
                            "replacements", lambda module: {})
    try:
        report = face.patch()
        info = face.status()
        for fix in lacking:
            entry = info["fixes"][fix.cve]
            assert entry["exposed"] is True, (fix.cve, entry)
            assert entry["state"].startswith("not patched: %s cannot be applied"
                                             % fix.cve), entry
            assert [why for label, why in report.skipped if label == fix.cve], report
        assert face.is_vulnerable()
    finally:
        face.unpatch()
