"""The self-check, computed in the calling process: ``status()`` and the command line.

Why in-process: what matters is what *this* process's parsers do (the server's
environment, its imports, its patch), not what a fresh shell would see.
"""

import os
import sys

from _cpython_security._fork import settle_in_child
from _cpython_security._rows import fixes_of
from _cpython_security._startup import left_out
from _cpython_security._report import common_status

from .. import _policy
from .._compat import STDLIB_MODULE
from .._shim._checks import CHECKS
from .._shim._frameworks import ADAPTERS
from .._parse import parse_qs
from .._report import PatchReport
from .._shim._state import state
from .._shim._api import ACTIVATION_VARIABLE
from .._shim._targets import diagnose, load
from .._shim import _split
from .._version import __version__

__all__ = ["status", "ATTACK", "BLOCKLIST_URL"]

#: CVE-2023-24329's blocklist bypass: an unfixed ``urlparse`` finds no host in
#: it, while an HTTP client that strips the blank connects to ``evil.example``.
BLOCKLIST_URL = " https://evil.example/x"

#: The cache-poisoning query of CVE-2021-23336: a cache keyed on ``q`` sees
#: ``common_term``; a parser that splits on ``';'`` also sees ``malicious_term``.
ATTACK = "q=common_term&utm_content=s;q=malicious_term"
SAFE_RESULT = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}


def _plain(result):
    """parse_qs results as JSON-friendly text."""
    def text(value):
        if isinstance(value, bytes) and not isinstance(value, str):  # 3.x bytes
            return value.decode("latin-1")
        return value
    return dict((text(k), [text(v) for v in values]) for k, values in result.items())


def _stdlib(report):
    """The stdlib parser: what the original does, and what this process calls now."""
    module = sys.modules.get(STDLIB_MODULE) or __import__(STDLIB_MODULE, None, None, ("x",))
    facts = dict(state.stdlib_facts) if state.changed_something() and state.stdlib_facts \
        else diagnose(module.parse_qsl)
    default = facts["separator_default"]
    as_called = _plain(module.parse_qs(ATTACK))
    return {
        "module": STDLIB_MODULE,
        "splits_semicolon": facts["splits_semicolon"],
        "has_separator": facts["has_separator"],
        "separator_default": None if default is None else str(default),
        "vendor_patched": facts["vendor_patched"],
        "replaced_by_shim": report is not None
        and report.fixes.get("CVE-2021-23336") == "applied",
        "attack_as_called": as_called,
    }


def _adapted(adapter, report, key, replaced):
    """What *adapter*'s framework function does as this process calls it (patched or
    not): ``{key: its name, "installed", "patched", "exposed", "status"}``;
    *replaced*: the status of one the adapter replaced.

    An installed framework is imported (that is the only side effect)."""
    import warnings
    name = "%s.%s" % (adapter.module, adapter.attribute)
    entry = {key: name, "installed": True, "patched": False, "exposed": None}
    skipped = PatchReport()
    with warnings.catch_warnings():  # frameworks' import-time deprecations are noise here
        warnings.simplefilter("ignore")
        module = load(adapter, skipped)  # imports it when installed
    if module is None:
        entry["status"] = skipped.skipped[-1][1]
        entry["installed"] = entry["status"] != "not installed"
        entry["exposed"] = False if not entry["installed"] else None
        return entry
    entry["patched"] = report is not None and (
        name in report.changed or name + " (in place)" in report.changed)
    try:
        exposed, reason = adapter.assess(module, {})
    except Exception as exc:  # an unknown version: say so, never crash
        reason = "assessment failed: %s: %s" % (type(exc).__name__, exc)
        exposed = None
    entry["exposed"] = exposed
    entry["status"] = replaced if entry["patched"] else reason
    return entry


def _framework_parsers(report):
    """Each framework parser an adapter knows, as this process calls it."""
    return [_adapted(adapter, report, "parser",
                     "the adapter replaced it; the original splits on ';'")
            for adapter in ADAPTERS]


def _framework_checks(report):
    """Each framework check a fix breaks (``_shim._checks``), as this process calls
    it, with the framework's CVE, the fix that breaks it (``after``) and the
    self-check's words."""
    found = []
    for adapter in CHECKS:
        entry = _adapted(adapter, report, "check", adapter.fixed)
        entry.update({"cve": adapter.cve, "after": adapter.after, "issue": adapter.issue,
                      "summary": adapter.summary})
        found.append(entry)
    return found


def _split_fixes(module):
    """``{CVE: entry}`` for the urlsplit fixes: whether the interpreter's own
    ``urlsplit`` lacks each (``lacks``) and whether the one this process calls
    does (``exposed``)."""
    as_called = _split.diagnose(module.urlsplit)
    own = state.split_lacks if state.changed_something() and state.split_lacks else as_called
    return dict((cve, {"lacks": own[cve], "exposed": as_called[cve] is not False})
                for cve in _split.CVES)


def _add_states(fixes, report, package):
    """Each entry's ``issue`` and ``state``: what ``patch()`` did, else "left out"
    for a fix lacking here that ``CPYTHON_SECURITY_SKIP`` names (the start-up
    switch then had nothing else to patch), else "not patched"."""
    done = report.fixes if report is not None else {}
    skip = left_out(package, os.environ)
    for fix in fixes_of(package):
        entry = fixes[fix.cve]
        entry["issue"] = fix.issue
        entry["state"] = done.get(fix.cve) or (
            "left out" if fix.cve in skip and entry["lacks"] else "not patched")


def _add_copies(fixes, package):
    """Each entry's ``copies``: the registry's copies of the stdlib module (python-future's
    ``future.backports.urllib.parse``, 3.3's code), as this process calls them once
    imported: the query split as the fix splits it (``patch()`` rewrites the copy's
    parser), each ``urlsplit`` fix by its probe (no patch reaches the copy's
    ``urlsplit``: it stays exposed while imported). A probe that cannot tell counts as
    lacking the fix."""
    for fix in fixes_of(package):
        entry = fixes[fix.cve]
        entry["copies"] = copies = {}
        for name in fix.copies:
            module = sys.modules.get(name)
            if module is None:
                copies[name] = {"lacks": None, "exposed": False, "state": "not imported"}
                continue
            if fix.cve == "CVE-2021-23336":
                exposed = _plain(module.parse_qs(ATTACK)) != SAFE_RESULT
                state = "not patched" if exposed else "patched"
            else:
                exposed = _split.diagnose(module.urlsplit)[fix.cve] is not False
                state = "not patched: patch() replaces the stdlib's urlsplit only" \
                    if exposed else "has the fix"
            copies[name] = {"lacks": True, "exposed": exposed, "state": state}
            entry["exposed"] = entry["exposed"] or exposed


def _hostname(urlparse):
    try:
        return urlparse(BLOCKLIST_URL).hostname
    except ValueError as exc:  # not expected of any urlparse: say so, never crash
        return "ValueError: %s" % (exc,)


def status():
    """The self-check of this process as a dict (what ``--json`` prints)."""
    settle_in_child()  # a forked child forgets imports its parent's threads left half-done
    # Imported first: with the start-up switch on, importing it is what patches it.
    __import__(STDLIB_MODULE)
    with state.lock:
        report = state.report
        stdlib = _stdlib(report)
        frameworks = _framework_parsers(report)
        checks = _framework_checks(state.report)
        report = state.report  # importing a framework may have applied its adapter
        query_exposed = stdlib["attack_as_called"] != SAFE_RESULT or any(
            entry["exposed"] is True for entry in frameworks)
        module = sys.modules[STDLIB_MODULE]
        fixes = {"CVE-2021-23336": {
            "lacks": bool(stdlib["splits_semicolon"] or not stdlib["has_separator"]),
            "exposed": query_exposed}}
        fixes.update(_split_fixes(module))
        _add_states(fixes, report, __name__.split(".")[0])
        _add_copies(fixes, __name__.split(".")[0])
        exposed = any(entry["exposed"] for entry in fixes.values()) or any(
            entry["exposed"] is True for entry in checks)
        info = common_status(__name__.split(".")[0], __version__, "CVE-2021-23336",
                             state.changed_something(), report, ACTIVATION_VARIABLE, exposed)
        from .._parse import fixed
        info.update({
            "fixes": fixes,
            "blocklist": {"url": BLOCKLIST_URL,
                          "hostname_as_called": _hostname(module.urlparse),
                          "hostname_backport": _hostname(fixed("urlparse"))},
            "stdlib": stdlib,
            "policy": {"variable": _policy.SEPARATOR_VARIABLE, "setting": _policy.setting,
                       "source": _policy.source},
            "attack": {"query": ATTACK, "backport": _plain(parse_qs(ATTACK))},
            "frameworks": frameworks,
            "framework_checks": checks,
        })
        return info
