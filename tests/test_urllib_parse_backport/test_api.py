"""patch()/unpatch()/is_patched(): every target, in this process (bpo-42967).

Where the stdlib splits on ';' (2.7.18, the py3X-unfixed environments) patch()
really patches; the other 3.x interpreters here are already fixed, so those
tests use ``force=True`` (``FORCE``, from tests/stdlib_state.py).
"""

import inspect
import sys
import threading
import types
import warnings

import pytest

from dependencies import importorskip
from stdlib_state import FORCE, UNFIXED

import urllib_parse_backport as backport

PY2 = sys.version_info[0] == 2
if PY2:
    import urlparse as stdlib
else:
    import urllib.parse as stdlib

ATTACK = "q=common_term&utm_content=s;q=malicious_term"
SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
SAFE_PAIRS = [("q", "common_term"), ("utm_content", "s;q=malicious_term")]
# FORCE: patch() on a fixed 3.x stdlib changes nothing unless forced.


def _cgi():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 3.11, 3.12 (PEP 594)
        try:
            import cgi
        except ImportError:  # 3.13: removed
            return None
    return cgi


# Every test here starts and ends unpatched (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("unpatched")


@pytest.fixture
def alias_module():
    """A module that did ``from urllib.parse import parse_qs, parse_qsl`` before patch()."""
    module = types.ModuleType("shim_test_alias_module")
    module.parse_qs = stdlib.parse_qs
    module.parse_qsl = stdlib.parse_qsl
    module.renamed = stdlib.parse_qsl
    sys.modules[module.__name__] = module
    yield module
    del sys.modules[module.__name__]


def test_importing_the_package_changed_nothing():
    assert not backport.is_patched()
    assert stdlib.parse_qsl.__module__ == stdlib.__name__
    assert stdlib.parse_qsl is not backport.parse_qsl


@pytest.mark.skipif(not UNFIXED, reason="this stdlib has the bpo-42967 fix")
def test_patch_fixes_the_vulnerable_stdlib_without_force():
    assert stdlib.parse_qs(ATTACK) != SAFE
    report = backport.patch()
    assert report
    assert stdlib.__name__ + ".parse_qs" in report.changed
    assert stdlib.__name__ + ".parse_qsl" in report.changed
    assert backport.is_patched()
    assert stdlib.parse_qs(ATTACK) == SAFE
    assert stdlib.parse_qsl(ATTACK) == SAFE_PAIRS


@pytest.mark.skipif(UNFIXED, reason="this stdlib splits on ';'")
def test_patch_skips_a_fixed_stdlib_and_says_why():
    original = stdlib.parse_qsl
    report = backport.patch()
    assert not [name for name in report.changed
                if not name.startswith("future.backports.") and "urlsplit" not in name]
    assert dict(report.skipped)["urllib.parse"].startswith("already fixed")
    assert report.fixes["CVE-2021-23336"] == "not needed"
    assert stdlib.parse_qsl is original


def test_forced_patch_replaces_the_stdlib_parsers():
    original = stdlib.parse_qsl
    report = backport.patch(force=True)
    assert report.forced
    assert stdlib.__name__ + ".parse_qsl" in report.changed
    assert stdlib.parse_qsl is not original
    assert stdlib.parse_qs(ATTACK) == SAFE
    assert stdlib.parse_qs("a=1;a=2&b=3", separator=";") == {"a": ["1", "2&b=3"]}


def test_report_is_plain_data():
    report = backport.patch(force=FORCE)
    data = report.as_dict()
    assert set(data) == {"forced", "changed", "skipped", "fixes"}
    assert set(data["fixes"].values()) <= {"applied", "not needed", "left out", "unchecked"}
    assert all(set(entry) == {"target", "reason", "kind"} for entry in data["skipped"])
    assert all(entry["kind"] in ("left alone", "failure") for entry in data["skipped"])
    assert "PatchReport" in repr(report)


def test_names_bound_before_patch_are_rebound(alias_module):
    originals = alias_module.parse_qs, alias_module.parse_qsl
    report = backport.patch(force=FORCE)
    assert "shim_test_alias_module.parse_qsl" in report.changed
    assert "shim_test_alias_module.renamed" in report.changed
    assert alias_module.parse_qs(ATTACK) == SAFE
    assert alias_module.renamed(ATTACK) == SAFE_PAIRS
    backport.unpatch()
    assert (alias_module.parse_qs, alias_module.parse_qsl) == originals
    assert alias_module.parse_qs is originals[0]
    assert alias_module.renamed is originals[1]


def test_references_no_scan_can_see_are_fixed_in_place():
    # A default argument, a closure and a container hold the original object.
    def handler(query, parse=stdlib.parse_qsl):
        return parse(query)

    def make():
        parse = stdlib.parse_qs
        return lambda query: parse(query)

    held = [stdlib.parse_qsl]
    closure = make()
    original_code = stdlib.parse_qsl.__code__
    backport.patch(force=FORCE)
    assert handler(ATTACK) == SAFE_PAIRS
    assert closure(ATTACK) == SAFE
    assert held[0](ATTACK) == SAFE_PAIRS
    # The original object keeps its identity and its signature.
    assert held[0] is handler.__defaults__[0]
    backport.unpatch()
    assert held[0].__code__ is original_code


def test_stale_reference_accepts_every_argument_the_original_did():
    held = stdlib.parse_qsl
    backport.patch(force=FORCE)
    if PY2:
        assert held(ATTACK, 1, 0, None) == SAFE_PAIRS
    else:
        args = (ATTACK, True, False, "latin-1", "strict", None, "&")
        if UNFIXED:  # no separator parameter before bpo-42967
            args = args[:-1]
        assert held(*args) == SAFE_PAIRS
        assert held(ATTACK, encoding="latin1", errors="strict") == SAFE_PAIRS


def test_patch_is_idempotent():
    first = backport.patch(force=FORCE)
    changed = list(first.changed)
    second = backport.patch(force=FORCE)
    assert second is first
    assert second.changed == changed
    assert stdlib.parse_qs(ATTACK) == SAFE


def test_patch_unpatch_patch():
    original = stdlib.parse_qsl
    for _ in range(3):
        backport.patch(force=FORCE)
        patched = stdlib.parse_qsl
        assert patched is not original
        assert stdlib.parse_qsl(ATTACK) == SAFE_PAIRS
        backport.unpatch()
        assert stdlib.parse_qsl is original
        assert not backport.is_patched()
    backport.patch(force=FORCE)
    assert stdlib.parse_qsl is patched  # the same replacement object every time


def test_unpatch_without_patch_does_nothing():
    original = stdlib.parse_qsl
    backport.unpatch()
    backport.unpatch()
    assert stdlib.parse_qsl is original


def test_patch_is_thread_safe():
    original = stdlib.parse_qsl
    barrier_event = threading.Event()
    reports = []

    def worker():
        barrier_event.wait()
        reports.append(backport.patch(force=FORCE))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    barrier_event.set()
    for thread in threads:
        thread.join()
    assert len(reports) == 8
    assert all(report is reports[0] for report in reports)
    labels = reports[0].changed
    assert labels and len(labels) == len(set(labels))
    backport.unpatch()
    assert stdlib.parse_qsl is original


def test_patch_works_under_warnings_as_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        backport.patch(force=FORCE)
        assert stdlib.parse_qs(ATTACK) == SAFE
        backport.unpatch()


def _signature_names(func):
    if PY2:
        return inspect.getargspec(func).args
    return list(inspect.signature(func).parameters)


def test_replacement_signature_is_introspectable():
    backport.patch(force=FORCE)
    names = _signature_names(stdlib.parse_qsl)
    if PY2:
        assert names == ["qs", "keep_blank_values", "strict_parsing", "max_num_fields",
                         "separator"]
        assert inspect.getargspec(stdlib.parse_qsl).defaults[-1] == "&"
    else:
        signature = inspect.signature(stdlib.parse_qsl)
        assert names == ["qs", "keep_blank_values", "strict_parsing", "encoding", "errors",
                         "max_num_fields", "separator"]
        assert signature.parameters["separator"].default == "&"
        assert "separator='&'" in str(signature)


@pytest.mark.parametrize("call", [
    "f(qs)", "f(qs, 1)", "f(qs, 1, 0)", "f(qs, keep_blank_values=1, strict_parsing=0)",
    "f(qs, max_num_fields=5)", "f(qs, separator='&')", "f(qs, 1, 0, max_num_fields=5)",
    "f(qs=qs)",
])
def test_every_stdlib_calling_convention(call):
    backport.patch(force=FORCE)
    for f in (stdlib.parse_qs, stdlib.parse_qsl):
        result = eval(call, {"f": f, "qs": ATTACK})
        assert dict(result) if isinstance(result, list) else result


def test_positional_calls_as_the_stdlib_makes_them():
    backport.patch(force=FORCE)
    if PY2:
        # 2.7 cgi.FieldStorage.read_urlencoded: max_num_fields 4th.
        assert stdlib.parse_qsl(ATTACK, 0, 0, 10) == SAFE_PAIRS
        with pytest.raises(ValueError):
            stdlib.parse_qsl(ATTACK, 0, 0, 1)
    else:
        # Tornado: encoding=/errors=; 3.6.13+ cgi: separator=.
        assert stdlib.parse_qs(ATTACK, False, False, encoding="latin1",
                               errors="strict") == SAFE
        assert stdlib.parse_qsl(ATTACK, False, False, "utf-8", "replace", 10,
                                "&") == SAFE_PAIRS
        assert stdlib.parse_qsl(ATTACK, max_num_fields=10, separator="&") == SAFE_PAIRS


@pytest.mark.skipif(_cgi() is None or not hasattr(_cgi(), "FieldStorage"),
                    reason="no cgi module (3.13)")
def test_cgi_parse_and_fieldstorage_use_the_fix():
    cgi = _cgi()
    backport.patch(force=FORCE)
    environ = {"QUERY_STRING": ATTACK, "REQUEST_METHOD": "GET"}
    form = cgi.FieldStorage(environ=environ)
    assert form.getlist("q") == ["common_term"]
    assert form.getvalue("utm_content") == "s;q=malicious_term"
    assert cgi.parse(environ=environ) == SAFE


@pytest.mark.skipif(_cgi() is None or not hasattr(_cgi(), "parse_qsl"),
                    reason="cgi.parse_qs/parse_qsl exist on 2.7, 3.6, 3.7 only")
def test_cgi_parse_qs_and_parse_qsl_are_targets():
    cgi = _cgi()
    originals = cgi.parse_qs, cgi.parse_qsl
    report = backport.patch(force=FORCE)
    assert "cgi.parse_qs" in report.changed and "cgi.parse_qsl" in report.changed
    assert cgi.parse_qs(ATTACK) == SAFE
    assert cgi.parse_qsl(ATTACK, 0, 0, 10) == SAFE_PAIRS
    backport.unpatch()
    assert (cgi.parse_qs, cgi.parse_qsl) == originals
    assert cgi.parse_qs is originals[0] and cgi.parse_qsl is originals[1]


MODULE_DICT = types.ModuleType.__dict__["__dict__"]


def test_unpatch_restores_every_target_identically(alias_module):
    """Every binding and code object the shim can touch is the same object after unpatch()."""
    cgi = _cgi()
    six = importorskip("six")
    six.moves.urllib.parse.parse_qs  # noqa: B018 (cache it)
    importorskip("future")
    import future.backports.urllib.parse  # noqa: F401
    import future.moves.urllib.parse  # noqa: F401

    def snapshot():
        state = {}
        for name, module in list(sys.modules.items()):
            # Read as the shim does: a lazy module's own __dict__ property (py's
            # apipkg) would import everything it names.
            namespace = (MODULE_DICT.__get__(module) if issubclass(type(module), types.ModuleType)
                         else None)
            if not isinstance(namespace, dict):
                continue
            for key in ("parse_qs", "parse_qsl", "renamed"):
                value = namespace.get(key)
                if isinstance(value, types.FunctionType):
                    state[name, key] = (value, value.__code__)
        return state

    before = snapshot()
    assert ("shim_test_alias_module", "renamed") in before
    if cgi is not None and hasattr(cgi, "parse_qs"):
        assert ("cgi", "parse_qs") in before
    backport.patch(force=True)
    assert snapshot() != before
    backport.unpatch()
    after = snapshot()
    assert set(after) == set(before)
    for key, (function, code) in before.items():
        assert after[key][0] is function, key
        assert after[key][1] is code, key


def test_alias_made_while_patched_is_restored_by_unpatch():
    backport.patch(force=FORCE)
    module = types.ModuleType("shim_test_late_module")
    module.parse_qsl = stdlib.parse_qsl  # ``from urllib.parse import parse_qsl`` after patch()
    sys.modules[module.__name__] = module
    try:
        backport.unpatch()
        assert module.parse_qsl is stdlib.parse_qsl
        assert module.parse_qsl.__module__ == stdlib.__name__
    finally:
        del sys.modules[module.__name__]


def test_public_backport_functions_are_never_rebound():
    public = backport.parse_qs, backport.parse_qsl
    backport.patch(force=FORCE)
    backport.unpatch()
    assert (backport.parse_qs, backport.parse_qsl) == public
    assert backport.parse_qsl(ATTACK) == SAFE_PAIRS
