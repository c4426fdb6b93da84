"""The packages share one design: the checks a maintainer would otherwise do by hand.

Read from the installed sources with ``ast`` (never by importing them), for
every module of every subpackage: no import cycle inside a package, counting
imports inside functions; no module over 400 lines (one over 300 is a
question, listed as a warning), and no test module either; neither package imports
the other, and what both need comes from ``_cpython_security``, which imports
neither (a package's own rooms are checked in its test folder). Then, through
the public API: the same report shape from both ``patch()`` functions,
``--help`` on both command lines, and an import that loads no module from
outside the distribution (other than interpreter built-ins).
"""

import ast
import importlib
import json
import os

import pytest

import _cpython_security
from fresh_interpreter import run, run_code, run_json
from implementation import HAS_C_REPR, NO_C_REPR
from internals import BY_PACKAGE, shared_registry, ships
from source_walk import imports as _imports, modules as _modules

#: The fix packages, from the registry.
PACKAGES = dict((name, importlib.import_module(name)) for name in shared_registry.PACKAGES)
#: The shared home: both packages import it, it imports neither.
SHARED = "_cpython_security"
ALL = dict(PACKAGES, **{SHARED: _cpython_security})
#: Over QUESTION_LINES a module is a question (split by idea?), listed as a
#: warning in the run's summary; over MAX_LINES a failure (CONTRIBUTING.md).
QUESTION_LINES = 300
MAX_LINES = 400


class LongModule(UserWarning):
    """A module over QUESTION_LINES lines: not yet a failure, a question."""


@pytest.mark.parametrize("package", sorted(ALL))
def test_no_import_cycle_inside_the_package(package):
    modules = dict(_modules(package))
    graph = dict((name, set(m for m in _imports(name, path) if m in modules and m != name))
                 for name, path in modules.items())
    for name in graph:  # importing a submodule runs its packages' __init__ first
        for parent in modules:
            if name.startswith(parent + "."):
                graph[name].discard(parent)
    visiting, done = [], set()

    def visit(name):
        if name in visiting:
            cycle = visiting[visiting.index(name):] + [name]
            pytest.fail("import cycle: %s" % " -> ".join(cycle))
        if name in done:
            return
        visiting.append(name)
        for target in sorted(graph[name]):
            visit(target)
        visiting.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)


@pytest.mark.parametrize("package", sorted(ALL))
def test_no_module_over_400_lines_and_those_over_300_listed(package):
    over = []
    for name, path in _modules(package):
        with open(path) as handle:
            count = len(handle.readlines())
        if count > QUESTION_LINES:
            import warnings
            warnings.warn(LongModule("%s has %d lines (over %d: split by idea?)"
                                     % (name, count, QUESTION_LINES)))
        if count > MAX_LINES:
            over.append("%s has %d lines" % (name, count))
    assert over == []


def test_no_test_module_over_400_lines():
    # The cap holds for the tests too: a test file is read as the specification.
    tests = os.path.dirname(os.path.abspath(__file__))
    over = []
    for directory, folders, files in os.walk(tests):
        folders[:] = [f for f in folders if f != "__pycache__"]
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(directory, name)
            with open(path, "rb") as handle:
                count = len(handle.readlines())
            if count > MAX_LINES:
                over.append("%s has %d lines" % (os.path.relpath(path, tests), count))
    assert sorted(over) == []


@pytest.mark.parametrize("package", sorted(ALL))
def test_neither_package_imports_the_other(package):
    others = [name for name in PACKAGES if name != package]
    for name, path in _modules(package):
        crossing = [m for m in _imports(name, path)
                    if any(m == other or m.startswith(other + ".") for other in others)]
        assert crossing == [], "%s imports %s" % (name, crossing)


SHAPE = """
import json, sys
package = __import__(sys.argv[1])
report = package.patch(force=True)
again = package.patch(force=True)
undone = package.unpatch()
print(json.dumps({
    'type': type(report).__name__,
    'same_object': again is report,
    'forced': report.forced,
    'changed_is_names': isinstance(report.changed, list)
                        and all(isinstance(n, str) and '.' in n for n in report.changed),
    'skipped_are_pairs': all(len(entry) == 2 for entry in report.skipped),
    'truth': bool(report) == bool(report.changed),
    'keys': sorted(set(report.as_dict()) & {'forced', 'changed', 'skipped'}),
    'undone_type': type(undone).__name__,
    'undone_changed': bool(undone.changed),
    'patched_after': package.is_patched(),
}))
"""


@pytest.mark.skipif(not HAS_C_REPR, reason=NO_C_REPR)
def test_every_patch_function_returns_the_same_report_shape():
    # A package with nothing to patch here (2.7: no ipaddress) has no report to compare.
    shapes = dict((package, json.loads(run_code(SHAPE, [package])[1]))
                  for package in sorted(PACKAGES) if ships(package))
    first = shapes.pop(min(shapes))
    assert shapes == dict((package, first) for package in shapes)
    assert first == {
        "type": "PatchReport", "same_object": True, "forced": True, "changed_is_names": True,
        "skipped_are_pairs": True, "truth": True, "keys": ["changed", "forced", "skipped"],
        "undone_type": "PatchReport", "undone_changed": True, "patched_after": False}


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_command_line_has_help_and_usage_errors(package):
    rc, out, err = run(["-m", package, "--help"])
    assert rc == 0 and out.startswith("usage: python -m %s" % package), err
    assert "--json" in out
    rc, out, err = run(["-m", package, "--no-such-option"])
    assert rc == 2 and err.startswith("usage: python -m %s" % package)


IMPORT_ALONE = """
import json, sys
base, package = sys.argv[1:]
__import__(base)
before = set(sys.modules)
__import__(package)
print(json.dumps(sorted(name for name in set(sys.modules) - before
                        if sys.modules[name] is not None
                        and name not in sys.builtin_module_names  # no file: 2.7's thread
                        and name.split('.')[0] not in (package, '_cpython_security'))))
"""

#: The stdlib module each package's first fix is for: the shortest name its probes read
#: (``urllib.parse``, not python-future's copy).
STDLIB_BESIDE = dict((package, min(fix.probes, key=len)) for package, fix in BY_PACKAGE.items())


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_importing_a_package_loads_nothing_outside_it(package):
    # What only patch(), the self-check or a first parse needs is imported then:
    # this keeps the import cheap (docs/performance.rst, "Import cost").
    if not ships(package):
        pytest.skip("this interpreter ships no %s" % STDLIB_BESIDE[package])
    assert run_json(IMPORT_ALONE, [STDLIB_BESIDE[package], package], quiet=True) == []


def _distribution_packages():
    """This distribution's top-level packages, as its metadata lists them
    (``top_level.txt`` of the installed wheel, else setup.py's source tree):
    not everything installed beside it, where frameworks live too."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(_cpython_security.__file__)))
    import glob
    for top_level in glob.glob(os.path.join(root, "cpython_security_backports*", "top_level.txt")):
        with open(top_level) as handle:
            return set(line.strip() for line in handle if line.strip())
    return set(name for name in os.listdir(root)
               if os.path.isfile(os.path.join(root, name, "__init__.py")))


def _text(node):
    """The string *node* holds, if it is a string literal (ast.Str before 3.8)."""
    kind = type(node).__name__
    value = node.s if kind == "Str" else node.value if kind == "Constant" else None
    return value if isinstance(value, str) else None


def _docstrings(tree):
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                and _text(body[0].value) is not None:
            found.add(id(body[0].value))
    return found


def _named_packages(path, packages):
    """``[(line, top-level package)]``: each string of *path* (not a docstring) that
    names one of *packages* or a module in it, and each string argument of
    ``__import__``/``import_module``, whatever it names."""
    with open(path) as handle:
        tree = ast.parse(handle.read(), path)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if name in ("__import__", "import_module") and node.args:
                first = node.args[0]
                text = _text(first)
                if text is not None:
                    found.append((node.lineno, text.split(".")[0]))
                    skip.add(id(first))
        text = _text(node)
        if text is not None and id(node) not in skip and text.split(".")[0] in packages:
            found.append((node.lineno, text.split(".")[0]))
    return found


def test_the_shared_package_names_packages_only_in_the_registry():
    # String imports too: an __import__("pkg...") or import_module("pkg...")
    # outside the registry, or naming a package no row of it has, ties the
    # shared package to a package the way an import statement would.
    registered = set(fix.package for fix in shared_registry.FIXES)
    # cpython_security: the umbrella in code, whose name the start-up lines carry.
    packages = _distribution_packages() - set([SHARED, "cpython_security"])
    assert registered <= packages
    wrong = []
    for name, path in _modules(SHARED):
        for line, package in _named_packages(path, packages):
            # _rows: the rows, a module per package; _table: what tools/make_pth.py
            # writes from them for start-up.
            in_rows = name.startswith(SHARED + "._rows")
            if not (in_rows or name.endswith("._table")) or package not in registered:
                wrong.append("%s:%d names %s" % (name, line, package))
    assert wrong == []


def test_every_registry_row_names_a_module_that_applies_it():
    # Its own start-up module, or none: then the shared start-up calls its patch().
    for fix in shared_registry.FIXES:
        if fix.startup is None:
            assert callable(PACKAGES[fix.package].patch), fix
            continue
        assert fix.startup.split(".")[0] == fix.package
        module = __import__(fix.startup, None, None, ("run",))
        assert callable(module.run), fix


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_a_fix_package_holds_no_copy_of_a_shared_seam(package):
    # What every fix package would repeat comes from _cpython_security: a start-up
    # module of its own only where its row names it, a command line of its own only
    # where it has more to say than the registry's words (a --probe of its own).
    modules = set(name.rpartition(".")[2] for name, _ in _modules(package)
                  if name.count(".") == 1)
    own = set(fix.startup.split(".")[-1] for fix in shared_registry.fixes_of(package)
              if fix.startup is not None and fix.startup.count(".") == 1)
    assert "_startup" not in modules - own
    if BY_PACKAGE[package].unfixed is not None:  # the shared self-check says it all
        assert "_cli" not in modules
