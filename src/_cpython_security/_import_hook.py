"""A post-import hook: call back right after named modules are first imported.

Why: a fix must reach a module imported *later* without importing it up front,
which is slow: the start-up switches patch ``ctypes``, the stdlib parser and
python-future's copy when they are imported, and ``patch(frameworks=True)``
each installed framework; at start-up (from a ``.pth`` line) importing a
framework early also fails on 2.7 when its dependencies are namespace packages
set up by ``.pth`` files read after ours (zope.interface). Both packages use it.
The hook sits on ``sys.meta_path``, finds nothing itself, and lets the other
finders load the module; it only runs *callback(name)* once the module is done.
"""

import sys

__all__ = ["PostImportHook"]


class PostImportHook(object):
    """Calls *callback(name)* after each module in *names* is imported, then forgets it."""

    def __init__(self, names, callback):
        self.names = set(names)
        self.callback = callback
        self._busy = set()  # names being imported through this hook: let others find them
        #: Names whose import has started through this hook and not finished.
        self.loading = set()

    def install(self):
        if self not in sys.meta_path:
            sys.meta_path.insert(0, self)

    def uninstall(self):
        while self in sys.meta_path:
            sys.meta_path.remove(self)

    def _wants(self, fullname):
        return fullname in self.names and fullname not in self._busy

    def _done(self, fullname):
        self.loading.discard(fullname)
        self.names.discard(fullname)
        if not self.names:
            self.uninstall()
        self.callback(fullname)

    # Python 3: wrap the loader the other finders choose.
    def find_spec(self, fullname, path=None, target=None):
        if not self._wants(fullname):
            return None
        self._busy.add(fullname)
        try:
            spec = _find_spec_elsewhere(self, fullname, path, target)
        finally:
            self._busy.discard(fullname)
        if spec is None or spec.loader is None:
            return None
        if hasattr(spec.loader, "exec_module"):
            spec.loader = _CallingBackLoader(spec.loader, self)
        elif hasattr(spec.loader, "load_module"):  # zipimport before 3.10 (zipped eggs)
            spec.loader = _CallingBackLegacyLoader(spec.loader, self)
        else:
            return None
        self.loading.add(fullname)
        return spec

    # Python 2 (no find_spec, PEP 451 is 3.4+): import it the usual way, nested, then
    # call back. Python 3 finders are asked find_spec first and never reach this.
    def find_module(self, fullname, path=None):
        if sys.version_info[0] >= 3 or not self._wants(fullname):
            return None
        return self

    def load_module(self, fullname):
        self.loading.add(fullname)
        self._busy.add(fullname)
        try:
            __import__(fullname)
        finally:
            self._busy.discard(fullname)
        self._done(fullname)
        return sys.modules[fullname]

    # Python 2's runpy (``python -m name``) asks the loader pkgutil finds, which is
    # this hook, about the module before importing it: the real loader answers.
    def _real_loader(self, fullname):
        import pkgutil
        self._busy.add(fullname)
        try:
            return pkgutil.find_loader(fullname)
        finally:
            self._busy.discard(fullname)

    def is_package(self, fullname):
        return self._real_loader(fullname).is_package(fullname)

    def get_code(self, fullname):
        return self._real_loader(fullname).get_code(fullname)

    def get_filename(self, fullname):
        return self._real_loader(fullname).get_filename(fullname)


def _find_spec_elsewhere(hook, fullname, path, target):
    """The spec the finders after *hook* on ``sys.meta_path`` give, as the import
    system would ask them (``find_spec``, or a legacy ``find_module``).

    Not ``importlib.util.find_spec``: importing ``importlib.util`` loads
    ``contextlib``, ``collections``..., a cost every process that imports a
    watched module would pay at start-up (docs/performance.rst, "Start-up
    switches")."""
    for finder in list(sys.meta_path):
        if finder is hook:
            continue
        find = getattr(finder, "find_spec", None)
        if find is not None:
            spec = find(fullname, path, target)
        elif sys.version_info >= (3, 12):  # 3.12 dropped PEP 302 finders: so do we
            continue
        else:  # a PEP 302 finder (six's importer before 1.16, old meta importers)
            find_module = getattr(finder, "find_module", None)
            loader = find_module(fullname, path) if find_module is not None else None
            spec = None if loader is None else sys.modules["_frozen_importlib"].spec_from_loader(
                fullname, loader)
        if spec is not None:
            return spec
    return None


class _LoaderProxy(object):
    """Stands for *loader* (attributes it does not define come from it) for *hook*."""

    def __init__(self, loader, hook):
        self.loader = loader
        self.hook = hook

    def __getattr__(self, name):
        return getattr(self.loader, name)


class _CallingBackLoader(_LoaderProxy):
    """The real loader, plus the hook's callback after ``exec_module``; the module
    gets the real loader back in ``__loader__`` and ``__spec__`` once executed."""

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        module.__loader__ = self.loader
        spec = getattr(module, "__spec__", None)
        if spec is not None and spec.loader is self:
            spec.loader = self.loader
        self.hook._done(module.__name__)


class _CallingBackLegacyLoader(_LoaderProxy):
    """The same for a loader with only ``load_module`` (it sets ``__loader__`` itself)."""

    def load_module(self, fullname):
        module = self.loader.load_module(fullname)
        self.hook._done(fullname)
        return module
