"""The post-import hook both start-up switches and the framework adapters rely on.

It must call back once a watched module is complete, whichever finder finds
it (a path entry, a package's ``__path__``, a PEP 302 meta-path finder where
the interpreter still supports those), and leave the module's loader as the
real one.
"""

import sys

import pytest

from internals import import_hook


@pytest.fixture
def watch(tmp_path, monkeypatch):
    """``watch(names)``: a hook on *names*, modules written under *tmp_path*; the calls seen."""
    monkeypatch.syspath_prepend(str(tmp_path))
    calls = []
    hooks = []

    def install(names):
        def callback(name):
            module = sys.modules[name]
            calls.append((name, getattr(module, "DONE", None)))

        hook = import_hook.PostImportHook(names, callback)
        hook.install()
        hooks.append(hook)
        return hook

    yield install, calls
    for hook in hooks:
        hook.uninstall()
    for name in [name for name in sys.modules if name.startswith("hooked_")]:
        del sys.modules[name]


def test_a_module_on_a_path_entry_is_called_back_once_complete(tmp_path, watch):
    install, calls = watch
    (tmp_path / "hooked_plain.py").write_text(u"DONE = 'complete'\n")
    hook = install(["hooked_plain"])
    import hooked_plain
    assert calls == [("hooked_plain", "complete")]
    assert hook not in import_hook.installed()  # nothing left to wait for
    if sys.version_info[0] > 2:
        assert type(hooked_plain.__loader__).__name__ == "SourceFileLoader"
        assert hooked_plain.__spec__.loader is hooked_plain.__loader__


def test_a_submodule_is_found_through_its_package_path(tmp_path, watch):
    install, calls = watch
    package = tmp_path / "hooked_package"
    package.mkdir()
    (package / "__init__.py").write_text(u"")
    (package / "inner.py").write_text(u"DONE = 'inner'\n")
    install(["hooked_package.inner"])
    import hooked_package.inner  # noqa: F401
    assert calls == [("hooked_package.inner", "inner")]


class LegacyFinder(object):
    """A PEP 302 meta-path finder and loader (find_module/load_module only)."""

    def find_module(self, fullname, path=None):
        return self if fullname == "hooked_legacy" else None

    def load_module(self, fullname):
        module = type(sys)(fullname)
        module.DONE = "legacy"
        module.__loader__ = self
        sys.modules[fullname] = module
        return module


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.12 dropped PEP 302 finders")
def test_a_module_from_a_pep302_finder_is_called_back(watch):
    install, calls = watch
    legacy = LegacyFinder()
    sys.meta_path.append(legacy)
    try:
        install(["hooked_legacy"])
        import hooked_legacy  # noqa: F401
    finally:
        sys.meta_path.remove(legacy)
    assert calls == [("hooked_legacy", "legacy")]


# A module importing another that installs a hook on the first: what the start-up
# switch does when django.utils.http is the first module to import the stdlib parser.
INNER = u"""
import sys
sys.modules["hooked_state"].HALF = sys.modules["hooked_outer"].__dict__.get("DONE")
sys.modules["hooked_state"].install(["hooked_outer"])
"""


@pytest.mark.parametrize("outer_through_a_hook", [True, False])
def test_a_hook_installed_while_its_module_is_half_imported_waits_for_the_rest(
        tmp_path, watch, outer_through_a_hook):
    install, calls = watch
    (tmp_path / "hooked_outer.py").write_text(u"import hooked_inner\nDONE = 'outer'\n")
    (tmp_path / "hooked_inner.py").write_text(INNER)
    state = type(sys)("hooked_state")
    state.install = install
    sys.modules["hooked_state"] = state
    if outer_through_a_hook:
        install(["hooked_outer"])
    import hooked_outer  # noqa: F401
    assert state.HALF is None  # the hook went on while hooked_outer was half-done
    if not outer_through_a_hook:  # no hook saw it end: the next import does
        try:
            import hooked_absent  # noqa: F401
        except ImportError:
            pass
    # Each hook calls back once, with the module complete.
    assert calls == [("hooked_outer", "outer")] * (2 if outer_through_a_hook else 1)
    assert not import_hook.importing("hooked_outer") and import_hook.imported("hooked_outer")


def test_every_hook_is_asked_through_one_finder_and_each_is_called_back(tmp_path, watch):
    # The import system asks each finder on sys.meta_path at every import: ten
    # hooks (the umbrella switch's) cost 3-7.5 us per import asked one by one.
    install, calls = watch
    (tmp_path / "hooked_shared.py").write_text(u"DONE = 'complete'\n")
    (tmp_path / "hooked_other.py").write_text(u"DONE = 'complete'\n")
    before = list(sys.meta_path)
    first, second = install(["hooked_shared"]), install(["hooked_shared", "hooked_other"])
    added = [finder for finder in sys.meta_path if finder not in before]
    assert len(added) <= 1 and first not in sys.meta_path and second not in sys.meta_path
    assert import_hook.installed()[:2] == [second, first]
    asked = []
    for hook in (first, second):
        hook.find_spec = (lambda real: lambda *args: asked.append(args[0]) or real(*args))(
            hook.find_spec)
        hook.find_module = (lambda real: lambda *args: asked.append(args[0]) or real(*args))(
            hook.find_module)
    try:
        __import__("hooked_nowhere_at_all")
    except ImportError:
        pass
    assert asked == []  # a name no hook watches: one set lookup, no hook called
    import hooked_shared  # noqa: F401
    assert calls == [("hooked_shared", "complete"), ("hooked_shared", "complete")]
    assert first not in import_hook.installed() and second in import_hook.installed()
    import hooked_other  # noqa: F401
    assert import_hook.installed() == [hook for hook in import_hook.installed()
                                       if hook not in (first, second)]
