"""A test that needs a missing module skips, unless this environment promises it.

``BACKPORT_TEST_REQUIREMENTS`` (tox.ini's ``[testenv]`` sets it to its deps,
``-r tests/requirements/...`` lines; tools/ci_container.sh to the same) names
what every test environment installs. A distribution those files list for
this interpreter (its environment marker true here) is promised: a test that
needs a module of it and cannot import it fails, naming the file, instead of
skipping. Without the variable (a bare ``pytest`` run) every missing module
is a skip, as ``pytest.importorskip`` has it.

The tests call :func:`importorskip` and :func:`missing` from here, never
``pytest.importorskip`` (tests/test_dependencies.py checks it).
"""

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIABLE = "BACKPORT_TEST_REQUIREMENTS"

#: Import name -> distribution, where the distribution is named otherwise
#: (else the import name's top level, compared as PyPI compares names).
DISTRIBUTIONS = {
    "web": "web.py",
    "multipart": "python-multipart",
    "python_multipart": "python-multipart",
    "yaml": "PyYAML",
    "rest_framework": "djangorestframework",
    # cheroot is CherryPy's server: every CherryPy pinned here requires it.
    "cheroot": "CherryPy",
}


def canonical(name):
    """A distribution name as PyPI compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def distribution(module):
    top = module.split(".")[0]
    return canonical(DISTRIBUTIONS.get(top, top))


def _marker_true(marker):
    from packaging.markers import Marker  # pytest's own dependency, on 2.7 too
    return Marker(marker).evaluate()


def parse(text, source, seen=None):
    """``{canonical name: source file}`` of the requirements *text* lists for
    this interpreter, following ``-r`` (relative to the repository's root)."""
    seen = set() if seen is None else seen
    listed = {}
    tokens = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            tokens.append(line)
    for line in tokens:
        for path in re.findall(r"(?:^|\s)-r\s+(\S+)", line):
            path = path if os.path.isabs(path) else os.path.join(ROOT, path)
            if path not in seen:
                seen.add(path)
                with open(path) as handle:
                    listed.update(parse(handle.read(), os.path.relpath(path, ROOT), seen))
        if line.startswith("-"):
            continue
        requirement, _, marker = line.partition(";")
        name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
        if name and (not marker.strip() or _marker_true(marker.strip())):
            listed[canonical(name.group(0))] = source
    return listed


_LISTED = []


def listed(environ=None):
    """What this environment promises: ``{canonical name: file}``."""
    if environ is not None:
        return parse(environ.get(VARIABLE, ""), VARIABLE)
    if not _LISTED:
        _LISTED.append(parse(os.environ.get(VARIABLE, ""), VARIABLE))
    return _LISTED[0]


def missing(module, why=None):
    """Skip the test for want of *module*; fail it when this environment promises it."""
    promised = listed().get(distribution(module))
    top = module.split(".")[0]
    if promised and top != module and _imports(top):
        # The promised distribution is installed; the version pinned for
        # this interpreter has no such module (Django < 3.0: no ASGI).
        pytest.skip("%s has no %s in the version installed for this interpreter%s"
                    % (distribution(module), module, ": %s" % why if why else ""),
                    allow_module_level=True)
    if promised:
        pytest.fail("%s lists %s for this interpreter (%s), but %s does not import%s"
                    % (promised, distribution(module), VARIABLE, module,
                       ": %s" % why if why else ""), pytrace=False)
    # As pytest.importorskip: at a module's top, the whole module skips.
    pytest.skip("%s is not installed for this interpreter%s"
                % (module, ": %s" % why if why else ""), allow_module_level=True)


def importorskip(module):
    """The module *module*, or :func:`missing`'s skip or failure."""
    try:
        __import__(module)
    except ImportError as exc:
        missing(module, str(exc))
    import sys
    return sys.modules[module]


def _imports(module):
    try:
        __import__(module)
    except ImportError:
        return False
    return True
