"""The check's verdicts as VEX documents a scanner reads: OpenVEX 0.2.0 and CycloneDX 1.5.

Why: Grype, Trivy and Dependency-Track flag each CVE of an old interpreter
by its version, whatever a start-up switch fixes in the processes it runs.
``cpython-security-check --format openvex`` (or ``cyclonedx``) says, for
each fix this distribution carries, what the check found in its own process
(``_verdict``), as a statement a scanner can apply. Pure Python and the
standard ``json`` module: the document is made where the interpreter runs,
in an image build or at start-up, with nothing else installed.

The product is the interpreter itself, named as scanners name it: the CPE
``cpe:2.3:a:python:python:<version>`` and the purl
``pkg:generic/python@<version>`` (PyPy: ``pypy:pypy`` and ``pypy``, with
PyPy's own version). A statement holds for processes of that interpreter
started with the environment the document names: a fix applied at start-up
is in effect only where the variable that applies it is set.

A fix with a CVE is named by it, its upstream issue an alias (OpenVEX) or a
reference (CycloneDX). A fix with no CVE is named by its upstream issue
(``gh-136063``): OpenVEX's ``name`` is "the main identifier used to name the
vulnerability", any string; CycloneDX's ``id`` is any string, with a
``source`` saying where it is defined (CPython's issue tracker).
"""

import json
import sys

from ._registry import FIXES
from ._selfcheck import BROKEN
from ._verdict import ABSENT, APPLIED, CARRIED, SKIPPED

__all__ = ["OPENVEX", "CYCLONEDX", "document", "product", "environment"]

OPENVEX = "openvex"
CYCLONEDX = "cyclonedx"

_UMBRELLA_NAMES = ("CPYTHON_SECURITY_PATCH", "CPYTHON_SECURITY_SKIP")
_CVE_URL = "https://www.cve.org/CVERecord?id=%s"
_ISSUE_URLS = {"gh": "https://github.com/python/cpython/issues/%s",
               "bpo": "https://bugs.python.org/issue%s"}


def product():
    """This interpreter as scanners identify it: ``{name, version, cpe, purl}``."""
    if "__pypy__" in sys.builtin_module_names:
        name, version = "pypy", "%d.%d.%d" % sys.pypy_version_info[:3]
    else:
        name, version = "python", "%d.%d.%d" % sys.version_info[:3]
    return {"name": name, "version": version,
            "cpe": "cpe:2.3:a:%s:%s:%s:*:*:*:*:*:*:*" % (name, name, version),
            "purl": "pkg:generic/%s@%s" % (name, version)}


def environment(environ):
    """The variables of *environ* that decide what start-up applies, as ``[(name,
    value)]``: the umbrella's, the skip list and each package's own, where set."""
    names = list(_UMBRELLA_NAMES)
    for fix in FIXES:
        for name in (fix.variable,) + fix.also_variables:
            if name not in names:
                names.append(name)
    return [(name, environ[name]) for name in names if name in environ]


def document(form, verdicts, environ, author, timestamp=None, identifier=None):
    """The VEX document, as JSON text, of *verdicts* (``_check.verdicts``) found in a
    process started with *environ*; *form* is :data:`OPENVEX` or :data:`CYCLONEDX`."""
    import time
    import uuid
    from ._version import __version__
    about = {
        "author": author, "product": product(), "tool_version": __version__,
        "timestamp": timestamp or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "id": identifier or "urn:uuid:%s" % uuid.uuid4(),
        "environment": environment(environ),
    }
    about["holds"] = _holds(about)
    make = _openvex if form == OPENVEX else _cyclonedx
    return json.dumps(make(verdicts, about), indent=2, sort_keys=True, separators=(",", ": "))


def _holds(about):
    pairs = about["environment"]
    return ("Holds for processes of %s %s (%s) started with %s, as cpython-security-check "
            "found in such a process." % (
                about["product"]["name"], about["product"]["version"], sys.executable,
                ", ".join("%s=%s" % pair for pair in pairs) if pairs
                else "none of the start-up variables set"))


def _issue_url(issue):
    kind, _, number = issue.partition("-")
    return _ISSUE_URLS[kind] % number


def _source(name):
    if name.startswith("CVE-"):
        return {"name": "CVE", "url": _CVE_URL % name}
    return {"name": "CPython issue tracker", "url": _issue_url(name)}


def _statement(verdict):
    """``(status, justification, text)`` of a :class:`_verdict.Verdict`: OpenVEX's
    words (CycloneDX's are mapped from them); *text* is the impact statement where
    not affected, the action statement where affected."""
    fix = verdict.fix
    if verdict.kind == APPLIED:
        how = ("where %s is set" % verdict.switch if verdict.switch
               else "where patch() is called, as in the process that made this document")
        return ("not_affected", "inline_mitigations_already_exist",
                "%s %s applies the upstream fix (%s) at start-up %s, replacing %s; this "
                "interpreter's own code lacks it (probe %s), and cpython-security-check found "
                "the fix in effect in a process started so." % (
                    fix.package, verdict.version, fix.issue, how, verdict.target,
                    verdict.probe))
    if verdict.kind == CARRIED:
        return ("not_affected", "vulnerable_code_not_present",
                "This interpreter's own code carries the upstream fix (%s), as the behaviour "
                "probe %s found: %s %s has nothing to replace." % (
                    fix.issue, verdict.probe, fix.package, verdict.version))
    if verdict.kind == ABSENT:
        return ("not_affected", "component_not_present",
                "This interpreter has no %s: nothing of %s to fix." % (verdict.target,
                                                                       fix.issue))
    return ("affected", None, verdict.action)


def _note(verdict, about):
    if verdict.kind == SKIPPED:
        return "CPYTHON_SECURITY_SKIP leaves this fix out. " + about["holds"]
    if verdict.kind == BROKEN:
        return "%s cannot be checked here, so nothing proves the fix. %s" % (
            verdict.fix.package, about["holds"])
    if verdict.exposed and not verdict.lacks:
        return ("This interpreter's own code carries the fix; what is exposed is a parser "
                "outside it that the switch also fixes (python -m %s names it). %s" % (
                    verdict.fix.package, about["holds"]))
    return about["holds"]


def _openvex(verdicts, about):
    item = about["product"]
    products = [{"@id": item["purl"], "identifiers": {"purl": item["purl"],
                                                      "cpe23": item["cpe"]}}]
    statements = []
    for verdict in verdicts:
        fix = verdict.fix
        status, justification, text = _statement(verdict)
        vulnerability = {"name": fix.cve, "@id": _source(fix.cve)["url"],
                         "description": fix.summary}
        if fix.issue != fix.cve:
            vulnerability["aliases"] = [fix.issue]
        statement = {"vulnerability": vulnerability, "products": products, "status": status,
                     "status_notes": _note(verdict, about)}
        if status == "affected":
            statement["action_statement"] = text
        else:
            statement.update(justification=justification, impact_statement=text)
        statements.append(statement)
    return {
        "@context": "https://openvex.dev/ns/v0.2.0",
        "@id": about["id"],
        "author": about["author"],
        "timestamp": about["timestamp"],
        "version": 1,
        "tooling": "cpython-security-check (cpython-security-backports %s). %s" % (
            about["tool_version"], about["holds"]),
        "statements": statements,
    }


#: OpenVEX's justification -> CycloneDX's ``analysis.justification``.
_JUSTIFICATIONS = {"inline_mitigations_already_exist": "protected_at_runtime",
                   "vulnerable_code_not_present": "code_not_present",
                   "component_not_present": "code_not_present"}


def _cyclonedx(verdicts, about):
    item = about["product"]
    vulnerabilities = []
    for verdict in verdicts:
        fix = verdict.fix
        status, justification, text = _statement(verdict)
        if status == "affected":
            analysis = {"state": "exploitable", "detail": "%s %s" % (text, _note(verdict, about)),
                        "response": ["update" if verdict.kind == BROKEN
                                     else "workaround_available"]}
        else:
            analysis = {"state": "not_affected", "detail": "%s %s" % (text, about["holds"]),
                        "justification": _JUSTIFICATIONS[justification]}
        entry = {"bom-ref": "%s/%s" % (fix.package, fix.cve), "id": fix.cve,
                 "source": _source(fix.cve), "description": fix.summary,
                 "analysis": analysis, "affects": [{"ref": item["purl"]}]}
        if fix.issue != fix.cve:
            entry["references"] = [{"id": fix.issue, "source": _source(fix.issue)}]
        vulnerabilities.append(entry)
    return {
        "bomFormat": "CycloneDX",
        "specVersion": "1.5",
        "serialNumber": about["id"],
        "version": 1,
        "metadata": {
            "timestamp": about["timestamp"],
            "authors": [{"name": about["author"]}],
            "tools": {"components": [{"type": "application", "name": "cpython-security-check",
                                      "version": about["tool_version"]}]},
            "component": {"type": "application", "bom-ref": item["purl"],
                          "name": item["name"], "version": item["version"],
                          "cpe": item["cpe"], "purl": item["purl"]},
            "properties": [{"name": "cpython-security:environment:" + name, "value": value}
                           for name, value in about["environment"]]
            + [{"name": "cpython-security:statement", "value": about["holds"]}],
        },
        "vulnerabilities": vulnerabilities,
    }
