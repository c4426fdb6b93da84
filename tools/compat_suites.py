"""Run frameworks' own test suites three times: no switch, ``URLLIB_PARSE_BACKPORT_PATCH=1``,
and ``CPYTHON_SECURITY_PATCH=1`` (every fix, the framework adapters included).

What it shows: the start-up switches change no outcome of a framework's own
tests except those listed with their reason (tests that assert the old ``';'``
splitting, or that write what a header-injection guard now refuses). For one
tox environment (``compat-py27``, ``compat-py38-unfixed``) it downloads each
pinned sdist (``pip download --no-binary :all:``; cached in WORKDIR, so a second
run downloads nothing), installs it without dependencies
(tests/requirements/compat.txt pins those), unpacks its tests, and runs the
chosen tests with no variable, ``URLLIB_PARSE_BACKPORT_PATCH=1`` and the umbrella. Outcomes are
compared per test id with the unset run; every change must be listed in
tests/data/compat_expected.json (with its reason), and every listed change
must happen. Anything else fails the run, naming the test ids.

Usage (tox ``commands`` of the ``compat-*`` environments)::

    python tools/compat_suites.py ENV WORKDIR [SUITE ...]
"""

from __future__ import print_function

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPECTED = os.path.join(ROOT, "tests", "data", "compat_expected.json")
VARIABLE = "URLLIB_PARSE_BACKPORT_PATCH"
UMBRELLA = "CPYTHON_SECURITY_PATCH"
#: "1": the query-string package's own switch; "umbrella": every package's.
MODES = ("unset", "1", "umbrella")

_PYTEST = ["-p", "no:cacheprovider", "-q", "-o", "addopts="]


def _suite(name, dist, version, runner, tests, args=(), targets=None):
    """*tests*: the sdist's test directory, unpacked; *targets*: what pytest runs
    (default: all of *tests*)."""
    return {"name": name, "dist": dist, "version": version, "runner": runner,
            "tests": tests, "args": list(args), "targets": targets or [tests]}


#: Bottle's own runner (it runs in debug mode, from its test directory); "fast"
#: leaves out the server adapters' tests.
BOTTLE = ["testall.py", "verbose", "fast"]
#: The Django test modules that touch query strings, bodies and the test client.
DJANGO = ["runtests.py", "--verbosity", "2", "--parallel", "1", "--noinput", "httpwrappers",
          "requests", "utils_tests.test_http", "test_client", "handlers"]

#: Werkzeug's development server and debugger tests need requests and
#: pytest-xprocess and start servers; neither parses a query string.
WERKZEUG = ["--ignore=tests/test_serving.py", "--ignore=tests/test_debug.py"]
#: Paste's proxy tests fetch a page from the internet.
PASTE = ["--ignore=tests/test_proxy.py"]


def _suites(django, twisted):
    """The suites, with the Django and Twisted releases of the interpreter."""
    return [
        _suite("bottle", "bottle", "0.12.18", "unittest", "test", BOTTLE),
        _suite("webob", "WebOb", "1.8.7", "pytest", "tests",
               ["--ignore=tests/performance_test.py"]),
        _suite("werkzeug", "Werkzeug", "1.0.1", "pytest", "tests", WERKZEUG),
        _suite("paste", "Paste", "3.6.1", "pytest", "tests", PASTE),
        _suite("django", "Django", django, "unittest", "tests", DJANGO),
        # The tests ship inside the installed package: nothing to unpack.
        _suite("twisted", "Twisted", twisted, "trial", None,
               ["twisted.web.test.test_http", "twisted.web.test.test_web"]),
    ]


#: Per environment. 1.11.29 and 20.3.0 are the last Django and Twisted for 2.7;
#: Django 2.2.18 is the last 2.2 that splits on ';' (2.2.19 fixed it).
#: python-multipart (Starlette's and FastAPI's form bodies; its adapter is
#: part of =frameworks): 0.0.20, the current release, needs 3.8+.
MULTIPART = _suite("python-multipart", "python-multipart", "0.0.20", "pytest", "tests")
#: Starlette's form parsing and request tests: its urlencoded bodies go through
#: python-multipart's QuerystringParser. 0.44.0 is the last release for 3.8;
#: its tests run on asyncio only (trio is not installed).
STARLETTE = _suite("starlette", "starlette", "0.44.0", "pytest", "tests", ["-k", "not trio"],
                   targets=["tests/test_formparsers.py", "tests/test_requests.py"])
SUITES = {"compat-py27": _suites("1.11.29", "20.3.0"),
          "compat-py38-unfixed": _suites("2.2.18", "21.2.0") + [MULTIPART, STARLETTE]}


def _pip(*args, **environ):
    subprocess.check_call([sys.executable, "-m", "pip", "--disable-pip-version-check"]
                          + list(args), env=dict(os.environ, **environ))


def sdist(suite, cache):
    """The suite's sdist, downloaded into *cache* the first time only."""
    stem = ("%s-%s.tar." % (suite["dist"], suite["version"])).lower().replace("_", "-")
    for attempt in (1, 2):
        # Newer sdists spell the project name with "_" (python_multipart-0.0.20).
        found = [n for n in os.listdir(cache) if n.lower().replace("_", "-").startswith(stem)]
        if found:
            return os.path.join(cache, found[0])
        if attempt == 1:
            # One exact sdist, no dependencies: a configured constraints file has
            # nothing to constrain, and pip 20.3 (2.7's last) fails its download
            # with "assert req.link is not None" when one is configured.
            _pip("download", "--quiet", "--no-binary", ":all:", "--no-deps", "--dest", cache,
                 "%s==%s" % (suite["dist"], suite["version"]), PIP_CONSTRAINT=os.devnull)
    raise SystemExit("compat_suites: pip downloaded no sdist %s*" % stem)


def installed_version(dist):
    code = ("import pkg_resources, sys\ntry: print(pkg_resources.get_distribution(sys.argv[1])"
            ".version)\nexcept pkg_resources.DistributionNotFound: print('')")
    return subprocess.check_output([sys.executable, "-c", code, dist]).decode().strip()


def prepare(suite, workdir):
    """Install the sdist (unless that version is installed); unpack its tests; the run dir."""
    archive = sdist(suite, os.path.join(workdir, "sdists"))
    if installed_version(suite["dist"]) != suite["version"]:
        _pip("install", "--quiet", "--no-deps", archive)
    where = os.path.join(workdir, "runs", suite["name"])
    if suite["tests"] is None:
        if not os.path.isdir(where):
            os.makedirs(where)
        return where
    if not os.path.isdir(where):
        with tarfile.open(archive) as tar:
            top = tar.getnames()[0].split("/")[0]
            prefix = "%s/%s/" % (top, suite["tests"])
            members = [m for m in tar.getmembers() if m.name.startswith(prefix)]
            tar.extractall(where + ".tmp", members)
        # Only the tests, so the run imports the installed framework, not the sdist's copy.
        os.makedirs(where)
        shutil.move(os.path.join(where + ".tmp", top, suite["tests"]),
                    os.path.join(where, suite["tests"]))
        shutil.rmtree(where + ".tmp")
    return where


def _environ(mode):
    environ = dict(os.environ)
    for name in [name for name in environ if name.startswith("CPYTHON_SECURITY_") or
                 name.endswith("_BACKPORT_PATCH") or name == "CTYPES_SAFE_PATCH"]:
        environ.pop(name)
    if mode == "umbrella":
        environ[UMBRELLA] = "1"
    elif mode != "unset":
        environ[VARIABLE] = mode
    environ["PYTHONDONTWRITEBYTECODE"] = "1"
    return environ


def run_pytest(suite, where, mode):
    report = os.path.join(where, "junit-%s.xml" % mode)
    # --rootdir: test ids relative to the unpacked tests wherever the work
    # directory is (inside a checkout, pytest would take setup.py's folder).
    subprocess.call([sys.executable, "-m", "pytest"] + _PYTEST
                    + ["--rootdir", where, "--junitxml", report] + suite["targets"]
                    + suite["args"],
                    cwd=where, env=_environ(mode), stdout=open(os.devnull, "w"))
    outcomes = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        test_id = "%s::%s" % (case.get("classname"), case.get("name"))
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}.get(
            kinds[0] if kinds else None, "passed")
        if kinds.count("error") and outcome == "failed":
            outcome = "error"  # a teardown error after a failure
        outcomes[test_id] = outcome
    return outcomes


#: unittest's verbose lines: "test_x (module.Class) ... ok", or the
#: description (a docstring's first line) on the next line; a warning printed
#: during the test can come between " ... " and the result, which then stands
#: on a line of its own.
_UNITTEST_ID = re.compile(r"^(\w+) \(([\w.]+)\)(?: \.\.\. (.*))?$")
_UNITTEST_RESULT = re.compile(r"^(?:.* \.\.\. )?(ok|FAIL|ERROR|skipped .*|expected failure|"
                              r"unexpected success)$")
_UNITTEST_OUTCOMES = {"ok": "passed", "FAIL": "failed", "ERROR": "error",
                      "expected failure": "xfailed", "unexpected success": "xpassed"}


def _output(command, cwd, mode, stream):
    """What *command* writes to *stream* (``"stdout"``/``"stderr"``), the runner's
    report; the other stream goes to a log beside it. Two pipes, so a test's
    own output cannot land in the middle of a report line."""
    with open(os.path.join(cwd, "other-output-%s.log" % mode), "wb") as other:
        pipes = {"stdout": other, "stderr": other}
        pipes[stream] = subprocess.PIPE
        process = subprocess.Popen(command, cwd=cwd, env=_environ(mode), **pipes)
        report = getattr(process, stream).read()
        process.wait()
    return report.decode("utf-8", "replace")


def run_unittest(suite, where, mode):
    """The suite's own unittest runner script (``args``), run verbosely in its test
    tree; unittest reports on stderr."""
    output = _output([sys.executable] + suite["args"], os.path.join(where, suite["tests"]),
                     mode, "stderr")
    return _unittest_outcomes(output)


#: The runners' last word: "Ran 302 tests in 0.416s" (unittest and trial).
_RAN = re.compile(r"^Ran (\d+) tests? in ", re.M)


def _all_read(outcomes, output):
    """*outcomes*, once checked against the runner's own count: a line the
    parser missed must not drop a test from the comparison."""
    ran = [int(n) for n in _RAN.findall(output)]
    if ran != [len(outcomes)]:
        raise SystemExit("compat_suites: read %d outcomes where the runner says %s:\n%s"
                         % (len(outcomes), ran or "nothing", output))
    return outcomes


def _unittest_outcomes(output):
    outcomes, pending = {}, None
    for line in output.splitlines():
        match = _UNITTEST_ID.match(line)
        if match:
            pending = "%s.%s" % (match.group(2), match.group(1))
            line = match.group(3) or ""
        found = _UNITTEST_RESULT.match(line) if pending else None
        result = found.group(1) if found else None
        if pending and result:
            outcome = _UNITTEST_OUTCOMES.get(result)
            outcomes[pending] = outcome or "skipped"
            pending = None
    return _all_read(outcomes, output)


#: trial's bwverbose reporter: "twisted.web.test.test_http.Tests.test_x ... [OK]",
#: a warning the test raised possibly printed after it on the same line.
_TRIAL_LINE = re.compile(r"^([\w.]+) \.\.\. \[(\w+)\]")
_TRIAL_OUTCOMES = {"OK": "passed", "FAIL": "failed", "FAILURE": "failed", "ERROR": "error",
                   "SKIPPED": "skipped",
                   "TODO": "xfailed", "SUCCESS": "xpassed"}


def run_trial(suite, where, mode):
    """trial, which reports on stdout."""
    output = _output([sys.executable, "-m", "twisted.trial", "--reporter=bwverbose"]
                     + suite["args"], where, mode, "stdout")
    outcomes = {}
    for line in output.splitlines():
        match = _TRIAL_LINE.match(line)
        if match:
            outcomes[match.group(1)] = _TRIAL_OUTCOMES.get(match.group(2), match.group(2))
    return _all_read(outcomes, output)


RUNNERS = {"pytest": run_pytest, "unittest": run_unittest, "trial": run_trial}

#: What each mode must do to the stdlib parser in these environments (both
#: unfixed): split on ';' unless the shim is on; checked so a run whose switch
#: did not take effect cannot pass.
_PROBE = ("import sys\ntry:\n    from urllib.parse import parse_qsl\nexcept ImportError:\n"
          "    from urlparse import parse_qsl\nsys.stdout.write(str(len(parse_qsl('a=1;b=2'))))")
_PROBE_FIELDS = {"unset": "2", "1": "1", "umbrella": "1"}


def _switch(mode):
    """The variable *mode* sets, as the messages name it."""
    return "%s=1" % UMBRELLA if mode == "umbrella" else "%s=%s" % (VARIABLE, mode)


def check_switch(mode):
    """A problem if the stdlib parser does not split as *mode* requires, else None."""
    seen = subprocess.check_output([sys.executable, "-c", _PROBE], env=_environ(mode))
    if seen.decode().strip() != _PROBE_FIELDS[mode]:
        return ("with %s the stdlib parse_qsl('a=1;b=2') gave %s fields, not %s: the "
                "start-up switch or the unfixed stdlib is missing, or the fix splits on ';'"
                % (_switch(mode), seen.decode(), _PROBE_FIELDS[mode]))
    return None


def changes(results):
    """``{(test id, mode): (unset outcome, mode outcome)}`` for every test that changed."""
    found = {}
    base = results["unset"]
    for mode in MODES[1:]:
        for test_id in set(base) | set(results[mode]):
            before, after = base.get(test_id, "absent"), results[mode].get(test_id, "absent")
            if before != after:
                found[(test_id, mode)] = (before, after)
    return found


def _expected(key, env, suite):
    with open(EXPECTED) as handle:
        return [e for e in json.load(handle)[key] if e["env"] == env and e["suite"] == suite]


def expected_changes(env, suite):
    """The listed changes: ``{(test id, mode): (unset outcome, mode outcome)}``."""
    return {(e["test"], e["mode"]): (e["unset"], e["outcome"])
            for e in _expected("changes", env, suite)}


def unexpected_failures(env, suite, outcomes):
    """Tests failing with the shim off that are not listed as failing there
    (a missing test dependency, an import error, a changed environment)."""
    allowed = set(e["test"] for e in _expected("failing_unset", env, suite))
    return sorted(t for t, o in outcomes.items() if o in ("failed", "error") and t not in allowed)


def counts(outcomes):
    tally = {}
    for outcome in outcomes.values():
        tally[outcome] = tally.get(outcome, 0) + 1
    return tally


def main(argv):
    if len(argv) < 2 or argv[0] not in SUITES:
        raise SystemExit("usage: compat_suites.py {%s} WORKDIR [SUITE ...]" % ",".join(SUITES))
    env, workdir, only = argv[0], os.path.abspath(argv[1]), argv[2:]
    for sub in ("sdists", "runs"):
        if not os.path.isdir(os.path.join(workdir, sub)):
            os.makedirs(os.path.join(workdir, sub))
    problems, summary = [p for p in map(check_switch, MODES) if p], {}
    for suite in SUITES[env]:
        if only and suite["name"] not in only:
            continue
        where = prepare(suite, workdir)
        results, started = {}, time.time()
        for mode in MODES:
            results[mode] = RUNNERS[suite["runner"]](suite, where, mode)
            if not results[mode]:
                problems.append("%s (%s): no test ran" % (suite["name"], mode))
        for test_id in unexpected_failures(env, suite["name"], results["unset"]):
            problems.append("%s: %s fails with no switch, and is not listed as failing"
                            % (suite["name"], test_id))
        seen, wanted = changes(results), expected_changes(env, suite["name"])
        for key in sorted(set(seen) | set(wanted)):
            if seen.get(key) != wanted.get(key):
                problems.append("%s: %s with %s: %s -> %s, expected %s -> %s" % (
                    suite["name"], key[0], _switch(key[1]),
                    seen.get(key, ("same",))[0], seen.get(key, ("", "same"))[1],
                    wanted.get(key, ("same",))[0], wanted.get(key, ("", "same"))[1]))
        summary[suite["name"]] = {
            "version": suite["version"], "seconds": int(time.time() - started),
            "outcomes": {m: counts(results[m]) for m in MODES},
            "changed": ["%s (%s): %s -> %s" % (k[0], _switch(k[1]), v[0], v[1])
                        for k, v in sorted(seen.items())]}
        print("%s %s: %s" % (suite["name"], suite["version"],
                             json.dumps(summary[suite["name"]], sort_keys=True)))
        sys.stdout.flush()
    with open(os.path.join(workdir, "summary-%s.json" % env), "w") as handle:
        json.dump(summary, handle, indent=1, sort_keys=True)
    for problem in problems:
        print("compat_suites: UNEXPECTED: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
