"""``cpython-security-check --format openvex`` and ``--format cyclonedx``: VEX a scanner reads.

Each document is valid by its format's own schema (OpenVEX's JSON schema
through jsonschema, CycloneDX's through cyclonedx-python-lib), and each fix's
status in it is the one the text check gives in the same environment.
2.7's and 3.6's documents, where neither library installs, are made by those
interpreters as children and checked here.
"""

import json
import os
import shutil
import sys

import pytest

from dependencies import importorskip
from fresh_interpreter import run, run_once, without_future
from interpreters import needed
from internals import PACKAGES, shared_registry

SCRIPT = os.path.join(os.path.dirname(sys.executable), "cpython-security-check")
SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "vex",
                      "openvex_json_schema.json")

#: No switch; the umbrella; the umbrella with a skip list naming a CVE every
#: interpreter of the matrix lacks, a fix named by its issue, and a package.
ENVIRONMENTS = {
    "bare": {},
    "umbrella": {"CPYTHON_SECURITY_PATCH": "1"},
    "skip": {"CPYTHON_SECURITY_PATCH": "1",
             "CPYTHON_SECURITY_SKIP": "CVE-2025-0938,gh-146211,http_cookies_backport"},
}

#: What the text check's verdict is, for each status of either format.
EXPOSED = {"affected": True, "not_affected": False, "exploitable": True}

#: The site directory a child interpreter imports: the installed packages, and
#: their start-up file run as ``site`` runs a line starting with "import".
CHECK = ("import os, sys; sys.path.insert(0, sys.argv[1]); "
         "exec(open(os.path.join(sys.argv[1], 'cpython_security_patch.pth')).read())\n"
         "from _cpython_security._check import main; sys.exit(main(sys.argv[2:]))")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A copy of the installed packages and start-up file, for another interpreter."""
    import _cpython_security
    installed = os.path.dirname(os.path.dirname(os.path.abspath(_cpython_security.__file__)))
    target = str(tmp_path_factory.mktemp("site"))
    for name in ("_cpython_security",) + tuple(PACKAGES):
        shutil.copytree(os.path.join(installed, name), os.path.join(target, name),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(os.path.join(installed, "cpython_security_patch.pth"), target)
    return target


def outputs(environ, executable=None, site=None):
    """``{format: (exit status, output)}`` of the check, text and both VEX formats, in
    this environment's interpreter or in *executable* importing *site*."""
    found = {}
    for form in ("text", "openvex", "cyclonedx"):
        args = ["--format", form, "--author", "Example Org <security@example.org>",
                "--verbose"]
        if executable is None:
            environ_here = dict(environ, PYTHONPATH=without_future())
            rc, out, err = run_once([SCRIPT] + args, **environ_here)
        else:
            rc, out, err = run(["-S", "-c", CHECK, site] + args, executable=executable,
                               **environ)
        assert err == "" and rc in (0, 1), (form, rc, err)
        found[form] = (rc, out)
    assert len(set(rc for rc, out in found.values())) == 1, found  # one exit status
    return found


def text_verdicts(out):
    """``{fix: exposed}`` from the text check's line per fix (``--verbose``)."""
    lines = out.splitlines()
    return dict((line.split(":")[0], line.split()[1] == "EXPOSED")
                for line in lines[lines.index("every fix:") + 1:] if not line.startswith(" "))


def assert_matches_the_text_check(found, environ):
    text = text_verdicts(found["text"][1])
    openvex = json.loads(found["openvex"][1])
    cyclonedx = json.loads(found["cyclonedx"][1])
    wanted = [fix.cve for fix in shared_registry.FIXES]
    assert sorted(text) == sorted(wanted)
    statements = openvex["statements"]
    assert [each["vulnerability"]["name"] for each in statements] == wanted
    assert [each["id"] for each in cyclonedx["vulnerabilities"]] == wanted
    for statement, entry in zip(statements, cyclonedx["vulnerabilities"]):
        name = statement["vulnerability"]["name"]
        assert EXPOSED[statement["status"]] is text[name], (name, statement)
        assert EXPOSED[entry["analysis"]["state"]] is text[name], (name, entry)
        if statement["status"] == "affected":  # the action: the variable that fixes it
            assert any(variable in statement["action_statement"] for variable in (
                "CPYTHON_SECURITY_PATCH=1", "CPYTHON_SECURITY_SKIP", "pip install")), statement
        if statement.get("justification") == "inline_mitigations_already_exist":
            fix = [each for each in shared_registry.FIXES if each.cve == name][0]
            impact = statement["impact_statement"]
            assert fix.package in impact and "CPYTHON_SECURITY_PATCH=1" in impact, impact
            assert entry["analysis"]["justification"] == "protected_at_runtime"
    skipped = [name.strip() for name in environ.get("CPYTHON_SECURITY_SKIP", "").split(",")]
    for statement in statements:
        fix = [each for each in shared_registry.FIXES
               if each.cve == statement["vulnerability"]["name"]][0]
        if statement["status"] == "affected" and (fix.cve in skipped
                                                  or fix.package in skipped):
            assert statement["status_notes"].startswith("CPYTHON_SECURITY_SKIP leaves")
    # The author, a timestamp and the environment the document was made in.
    assert openvex["author"] == "Example Org <security@example.org>"
    assert cyclonedx["metadata"]["authors"] == [{"name": openvex["author"]}]
    assert openvex["timestamp"].endswith("Z") and cyclonedx["metadata"]["timestamp"]
    for name, value in sorted(environ.items()):
        assert "%s=%s" % (name, value) in openvex["tooling"]
        assert {"name": "cpython-security:environment:" + name, "value": value} in \
            cyclonedx["metadata"]["properties"]
    if not environ:
        assert "none of the start-up variables set" in openvex["tooling"]


_VALIDATORS = []


def validators():
    """``(OpenVEX's, CycloneDX 1.5's)`` validators, built once: building CycloneDX's
    (its schema and the ones it refers to) took most of a validation, 1-3 s on 3.9+."""
    if not _VALIDATORS:
        jsonschema = importorskip("jsonschema")
        validation = importorskip("cyclonedx.validation.json")
        schema_version = importorskip("cyclonedx.schema").SchemaVersion
        with open(SCHEMA) as stream:
            schema = json.load(stream)
        _VALIDATORS.extend([
            jsonschema.Draft202012Validator(
                schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER),
            validation.JsonStrictValidator(schema_version.V1_5)])
    return _VALIDATORS


def assert_valid(found):
    openvex, cyclonedx_validator = validators()
    errors = [error.message for error in openvex.iter_errors(json.loads(found["openvex"][1]))]
    assert errors == []
    cyclonedx = found["cyclonedx"][1]
    assert json.loads(cyclonedx)["specVersion"] == "1.5"
    assert cyclonedx_validator.validate_str(cyclonedx) is None


def product_of(found):
    """The product each format names: ``(purl, cpe)``, both formats' the same."""
    openvex = json.loads(found["openvex"][1])
    cyclonedx = json.loads(found["cyclonedx"][1])["metadata"]["component"]
    names = set((product["identifiers"]["purl"], product["identifiers"]["cpe23"])
                for statement in openvex["statements"] for product in statement["products"])
    assert names == set([(cyclonedx["purl"], cyclonedx["cpe"])])
    return names.pop()


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_each_fix_has_the_status_the_text_check_gives(name):
    found = outputs(ENVIRONMENTS[name])
    assert_matches_the_text_check(found, ENVIRONMENTS[name])
    if "__pypy__" not in sys.builtin_module_names:
        version = "%d.%d.%d" % sys.version_info[:3]
        assert product_of(found) == ("pkg:generic/python@" + version,
                                     "cpe:2.3:a:python:python:%s:*:*:*:*:*:*:*" % version)


def test_an_exposure_outside_the_interpreter_is_said_to_be_outside_it():
    # A framework's own query parser splits on ';' (CVE-2021-23336) where the
    # interpreter's parse_qsl does not: the statement says which it is.
    rc, out, err = run_once([SCRIPT, "--json"], PYTHONPATH=without_future())
    status = json.loads(out)
    notes = dict((statement["vulnerability"]["name"], statement["status_notes"]) for statement
                 in json.loads(outputs({})["openvex"][1])["statements"])
    outside = 0
    for fix in shared_registry.FIXES:
        info = status[fix.package]
        each = info.get("fixes", {}).get(fix.cve, info)
        lacks = each["lacks"] if "lacks" in each else each["vulnerable"]
        said = "a parser outside it" in notes[fix.cve]
        assert said is (each["exposed"] and not lacks), (fix.cve, notes[fix.cve])
        outside += said
    if not outside:
        pytest.skip("no exposure outside the interpreter here (no framework installed)")


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_both_documents_are_valid_by_their_schemas(name):
    assert_valid(outputs(ENVIRONMENTS[name]))


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
@pytest.mark.parametrize("version", ["2.7", "3.6"])
def test_an_older_interpreters_documents_are_valid_and_match_its_text_check(
        version, name, site):
    importorskip("jsonschema")  # this environment validates; the child only writes
    executable = needed(version)
    found = outputs(ENVIRONMENTS[name], executable, site)
    assert_valid(found)
    assert_matches_the_text_check(found, ENVIRONMENTS[name])
    assert product_of(found)[0].startswith("pkg:generic/python@%s." % version)
