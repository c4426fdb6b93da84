"""Check what a release promises: reproducible distributions, workflows pinned and scoped.

Usage::

    python tools/check_release.py                     # the lint environment's check
    python tools/check_release.py --tag v1.0.0 --build dist   # the release workflow's build

Without options (run by ``tox -e lint``, so by ``bash tools/matrix``):

* the sdist and the wheel, built twice from two copies of the files git
  tracks, with the same ``SOURCE_DATE_EPOCH`` (the commit's time), are
  byte-identical, and ``twine check --strict`` passes on them;
* ``.github/workflows/release.yml`` builds the distributions in one job only,
  publishes exactly those files by trusted publishing (``id-token: write``, no
  token, pypa's action with ``attestations: true``) from the protected
  ``pypi`` environment, and gives no job more permission than it needs;
* tools/ci_container.sh runs what tox.ini's ``[testenv]`` runs; every action
  of ``.github/workflows/ci.yml`` is pinned by commit. (Which environments
  and interpreters CI and tools/matrix run is not checked here: both read
  tox.ini through tools/ci_matrix.py, tests/test_ci_matrix.py shows it.)

With ``--build DIR`` (the release workflow): build once into DIR, check that
the version is the tag's, run ``twine check --strict``. Exit status 0 when
every check passes, 1 otherwise (each failure printed).
"""

from __future__ import print_function

import argparse
import configparser
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOWS = os.path.join(ROOT, ".github", "workflows")
PUBLISH_ACTION = "pypa/gh-action-pypi-publish"
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")


def build(source, outdir, epoch):
    """The sdist and the wheel of *source*, built into *outdir*; their paths."""
    environ = dict(os.environ, SOURCE_DATE_EPOCH=str(epoch))
    subprocess.check_call([sys.executable, "-m", "build", "--no-isolation", "--outdir", outdir,
                           source], env=environ, stdout=subprocess.DEVNULL)
    return sorted(glob.glob(os.path.join(outdir, "*")))


def tracked_copy(destination):
    """Copy the files git tracks into *destination* (fresh times, as a new clone has)."""
    names = subprocess.check_output(["git", "ls-files", "-z"], cwd=ROOT).decode().split("\0")
    for name in filter(None, names):
        target = os.path.join(destination, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(os.path.join(ROOT, name), target)  # contents and mode, not times
    return destination


def commit_time():
    try:
        return int(subprocess.check_output(["git", "log", "-1", "--format=%ct"], cwd=ROOT))
    except (OSError, subprocess.CalledProcessError, ValueError):
        return 315532800  # 1980-01-01, the earliest time a zip file can hold


def digests(paths):
    found = {}
    for path in paths:
        with open(path, "rb") as handle:
            found[os.path.basename(path)] = hashlib.sha256(handle.read()).hexdigest()
    return found


def twine_check(paths):
    return subprocess.call([sys.executable, "-m", "twine", "check", "--strict"] + paths) == 0


def check_reproducible(problems):
    epoch = commit_time()
    work = tempfile.mkdtemp(prefix="check_release-")
    try:
        builds = []
        for attempt in ("first", "second"):
            source = tracked_copy(os.path.join(work, attempt, "src"))
            builds.append(build(source, os.path.join(work, attempt, "dist"), epoch))
        first, second = digests(builds[0]), digests(builds[1])
        if sorted(first) != sorted(second) or len(first) != 2:
            problems.append("two builds gave different files: %s / %s"
                            % (sorted(first), sorted(second)))
        for name in sorted(set(first) & set(second)):
            if first[name] != second[name]:
                problems.append("%s differs between two builds of one commit" % name)
            else:
                print("reproducible: %s sha256 %s" % (name, first[name]))
        if not twine_check(builds[0]):
            problems.append("twine check --strict failed")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def load_workflow(name):
    import yaml
    with open(os.path.join(WORKFLOWS, name)) as handle:
        document = yaml.safe_load(handle)
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on` as true
    return document


def _steps(job):
    return job.get("steps", [])


def check_pinned(name, workflow, problems):
    for job_name, job in workflow["jobs"].items():
        for step in _steps(job):
            uses = step.get("uses")
            if uses and not uses.startswith("./") and not PINNED.match(uses):
                problems.append("%s: job %s uses %s, not pinned by commit"
                                % (name, job_name, uses))


def check_release_workflow(problems):
    workflow = load_workflow("release.yml")
    check_pinned("release.yml", workflow, problems)
    if list(workflow["on"]) != ["push"] or "tags" not in workflow["on"]["push"]:
        problems.append("release.yml: must run on a pushed version tag only")
    if workflow.get("permissions") != {}:
        problems.append("release.yml: the workflow grants permissions; grant them per job")
    jobs = workflow["jobs"]
    builders = [name for name, job in jobs.items()
                if any("--build" in step.get("run", "") for step in _steps(job))]
    if builders != ["build"]:
        problems.append("release.yml: the distributions must be built in one job, "
                        "'build'; built in %s" % (builders,))
    publishers = [name for name, job in jobs.items()
                  if any(step.get("uses", "").startswith(PUBLISH_ACTION + "@")
                         for step in _steps(job))]
    if len(publishers) != 1:
        problems.append("release.yml: one job must publish with %s" % PUBLISH_ACTION)
        return
    publish = jobs[publishers[0]]
    step = [s for s in _steps(publish) if s.get("uses", "").startswith(PUBLISH_ACTION)][0]
    options = step.get("with") or {}
    if options.get("attestations") is not True:
        problems.append("release.yml: the publish step must set attestations: true")
    if set(options) & {"password", "user", "repository-url"}:
        problems.append("release.yml: trusted publishing to PyPI takes no token or index")
    if publish.get("permissions") != {"id-token": "write"}:
        problems.append("release.yml: the publish job needs id-token: write and nothing else")
    environment = publish.get("environment")
    environment = environment.get("name") if isinstance(environment, dict) else environment
    if environment != "pypi":
        problems.append("release.yml: the publish job must run in the protected 'pypi' "
                        "environment")
    if "build" not in _needs(publish) or any("run" in s for s in _steps(publish)):
        problems.append("release.yml: the publish job must only download what 'build' made")
    for name, job in jobs.items():
        if name not in builders and any("--build" in s.get("run", "") for s in _steps(job)):
            problems.append("release.yml: job %s builds again" % name)


def _needs(job):
    needs = job.get("needs", [])
    return [needs] if isinstance(needs, str) else list(needs)


def _tox():
    config = configparser.ConfigParser(interpolation=None)
    config.read(os.path.join(ROOT, "tox.ini"))
    return config


def check_ci_workflow(problems):
    check_pinned("ci.yml", load_workflow("ci.yml"), problems)


def check_container_script(problems):
    """tools/ci_container.sh runs what tox.ini's [testenv] (and compat-py27) runs."""
    with open(os.path.join(ROOT, "tools", "ci_container.sh")) as handle:
        # Whole command lines, compared word for word, not the shell's quoting.
        lines = [re.sub(r"^exec ", "", line.strip().replace('"', ""))
                 for line in handle.read().splitlines()]
    tox = _tox()
    deps = re.findall(r"-r (\S+)", tox.get("testenv:compat-py27", "deps"))
    deps += re.findall(r"-r (\S+)", tox.get("testenv", "deps"))
    installed = re.findall(r"-r (\S+)", " ".join(lines))
    if installed != deps:
        problems.append("tools/ci_container.sh installs %s; tox.ini's deps are %s"
                        % (installed, deps))
    command = tox.get("testenv", "commands").strip().replace("{posargs:tests}", "tests")
    if command.replace("python ", "$venv/bin/python ", 1) not in lines:
        problems.append("tools/ci_container.sh does not run tox.ini's command: %s" % command)
    compat = tox.get("testenv:compat-py27", "commands").strip().replace("{envname}", "$env")
    if compat.replace("python ", "$venv/bin/python ", 1).replace("{envdir}", "$venv") not in lines:
        problems.append("tools/ci_container.sh does not run tox.ini's compat-py27 command: %s"
                        % compat)
    pre = tox.get("testenv:py{36,37,38,39}-unfixed", "commands_pre").strip()
    if pre.replace("python ", "$venv/bin/python ", 1).replace("{envdir}", "$venv") not in lines:
        problems.append("tools/ci_container.sh does not prepare the unfixed stdlib as "
                        "tox.ini does: %s" % pre)


def release_build(tag, outdir, problems):
    """The release job: build once into *outdir*; the version must be *tag*'s."""
    paths = build(ROOT, outdir, commit_time())
    version = tag[1:] if tag.startswith("v") else tag
    for path in paths:
        if "-%s" % version not in os.path.basename(path):
            problems.append("%s is not version %s (the tag)" % (os.path.basename(path), version))
    if len(paths) != 2:
        problems.append("expected an sdist and a wheel, got %s" % paths)
    if not twine_check(paths):
        problems.append("twine check --strict failed")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tag", help="the version tag being released (with --build)")
    parser.add_argument("--build", metavar="DIR", help="build once into DIR (release job)")
    args = parser.parse_args(argv)
    problems = []
    if args.build:
        if not args.tag:
            parser.error("--build needs --tag")
        release_build(args.tag, args.build, problems)
    else:
        check_reproducible(problems)
        check_release_workflow(problems)
        check_ci_workflow(problems)
        check_container_script(problems)
    for problem in problems:
        print("check_release: " + problem, file=sys.stderr)
    if not problems:
        print("check_release: all checks passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
