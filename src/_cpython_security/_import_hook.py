"""A post-import hook: call back right after named modules are first imported.

Why: a fix must reach a module imported *later* without importing it up front,
which is slow: the start-up switches patch ``ctypes``, the stdlib parser and
python-future's copy when they are imported, and ``patch(frameworks=True)``
each installed framework; at start-up (from a ``.pth`` line) importing a
framework early also fails on 2.7 when its dependencies are namespace packages
set up by ``.pth`` files read after ours (zope.interface). Both packages use it.
The hook finds nothing itself and lets the other finders load the module; it
only runs *callback(name)* once the module is done. Every installed hook is
asked through one finder on ``sys.meta_path`` (:class:`_Watching`), since
the import system asks each finder there at every import of the process.

A module can be in ``sys.modules`` before it is done: a module it imports
(the stdlib parser, imported first by ``django.utils.http``) finds it there
half-executed, its later names not defined yet. :func:`importing` tells such
a module from an imported one, and a hook installed while one of its names
is half-imported calls back when that import finishes, not never.
"""

import sys

__all__ = ["PostImportHook", "importing", "imported", "installed"]

#: ``{name: count}`` of the modules being imported through a hook (nested hooks count twice).
_LOADING = {}
#: The modules whose body has run and whose hooks are calling back: done, for them.
_CALLING_BACK = set()
#: ``{name: [hook]}``: hooks installed while *name* was half-imported through a hook.
_AFTER = {}


def importing(name):
    """Whether module *name* is in ``sys.modules`` but its import has not finished.

    Why: a module's import puts it in ``sys.modules`` before executing its
    body, so a module it imports meanwhile finds it half-defined. Seen three
    ways: a hook is loading it; Python 3's import system marks its spec
    ``_initializing`` until the body has run (``importlib._bootstrap``,
    3.4+); the body's frame is on this thread's stack (Python 2, or a loader
    of its own)."""
    module = sys.modules.get(name)
    if module is None or name in _CALLING_BACK:
        return False
    if name in _LOADING:
        return True
    if getattr(getattr(module, "__spec__", None), "_initializing", False):
        return True
    namespace = getattr(module, "__dict__", None)
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is namespace and frame.f_code.co_name == "<module>":
            return True
        frame = frame.f_back
    return False


class _Watching(object):
    """The one finder this distribution puts on ``sys.meta_path``: it asks the
    installed hooks, newest first, about a name one of them watches.

    Why one finder for every hook: the import system asks each finder on
    ``sys.meta_path`` at every import (on 2.7 also at each implicit relative
    import a package module tries first), and the start-up switch installs a
    hook per package, so hooks asked in turn made every import of the
    process pay for each (docs/performance.rst); here a name no hook watches
    costs one set lookup. ``names`` may hold names a hook
    no longer waits for (it is rebuilt when a hook leaves): they only make the
    import of such a name ask the hooks, which decline it."""

    def __init__(self):
        self.hooks = []  # installed, the newest first (each was inserted at the front)
        self.names = frozenset()
        self.unfinished = set()  # hooks with half-imported names to look at each import

    def _wanted(self, fullname):
        return fullname in self.names or self.unfinished

    # Python 3
    def find_spec(self, fullname, path=None, target=None):
        if not self._wanted(fullname):
            return None
        for hook in list(self.hooks):
            spec = hook.find_spec(fullname, path, target)
            if spec is not None:
                return spec
        return None

    # Python 2 (3.x asks find_spec first and never reaches this)
    def find_module(self, fullname, path=None):
        if sys.version_info[0] >= 3 or not self._wanted(fullname):
            return None
        for hook in list(self.hooks):
            loader = hook.find_module(fullname, path)
            if loader is not None:
                return loader
        return None

    def add(self, hook):
        if hook not in self.hooks:
            self.hooks.insert(0, hook)
            self.names = self.names | frozenset(hook.names)
        if self not in sys.meta_path:
            sys.meta_path.insert(0, self)

    def remove(self, hook):
        while hook in self.hooks:
            self.hooks.remove(hook)
        self.unfinished.discard(hook)
        self.names = frozenset(name for each in list(self.hooks) for name in each.names)
        if not self.hooks:
            while self in sys.meta_path:
                sys.meta_path.remove(self)


_WATCHING = _Watching()


def installed():
    """The hooks installed now, the newest first."""
    return list(_WATCHING.hooks)


def imported(name):
    """Whether module *name* is in ``sys.modules`` and done (see :func:`importing`)."""
    return name in sys.modules and not importing(name)


class PostImportHook(object):
    """Calls *callback(name)* after each module in *names* is imported, then forgets it."""

    def __init__(self, names, callback):
        self.names = set(names)
        self.callback = callback
        self._busy = set()  # names being imported through this hook: let others find them
        #: Names whose import has started through this hook and not finished.
        self.loading = set()
        #: Names half-imported, not through a hook, when installed: checked at each import.
        self._unfinished = set()

    def install(self):
        """Put the hook first among the installed ones (:class:`_Watching` first on
        ``sys.meta_path``). A name being imported now (half-imported) calls back
        when that import finishes: through another hook, that hook's end says
        so; otherwise the next import after it does."""
        _WATCHING.add(self)
        for name in list(self.names):
            if name in _LOADING:
                _AFTER.setdefault(name, []).append(self)
            elif importing(name):
                self._unfinished.add(name)
        if self._unfinished:
            _WATCHING.unfinished.add(self)

    def uninstall(self):
        _WATCHING.remove(self)

    def _wants(self, fullname):
        if self._unfinished:
            for name in [name for name in self._unfinished if not importing(name)]:
                self._unfinished.discard(name)
                if name in self.names:  # stays installed: the hooks are being walked
                    self._done(name, uninstall=False)
            if not self._unfinished:
                _WATCHING.unfinished.discard(self)
        return fullname in self.names and fullname not in self._busy

    def _started(self, fullname):
        """The loader is about to run *fullname*'s body (not at ``find_spec``: a
        spec asked for, as ``importlib.util.find_spec`` does, may never load)."""
        self.loading.add(fullname)
        _LOADING[fullname] = _LOADING.get(fullname, 0) + 1

    def _failed(self, fullname):
        """*fullname*'s body raised: no longer loading; still watched for the next try."""
        if fullname in self.loading:
            self.loading.discard(fullname)
            count = _LOADING.pop(fullname, 1) - 1
            if count:
                _LOADING[fullname] = count

    def _done(self, fullname, uninstall=True):
        """*fullname*'s body has run: call back, then each hook that waited for it."""
        self._failed(fullname)  # not loading any more, as after a failure
        self.names.discard(fullname)
        if not self.names and uninstall:
            self.uninstall()
        waiting = _AFTER.pop(fullname, []) if fullname not in _LOADING else []
        _CALLING_BACK.add(fullname)
        try:
            self.callback(fullname)
            for hook in waiting:
                if fullname in hook.names and hook in _WATCHING.hooks:
                    hook._done(fullname)
        finally:
            _CALLING_BACK.discard(fullname)

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
        return spec

    # Python 2 (no find_spec, PEP 451 is 3.4+): import it the usual way, nested, then
    # call back. Python 3 finders are asked find_spec first and never reach this.
    def find_module(self, fullname, path=None):
        if sys.version_info[0] >= 3 or not self._wants(fullname):
            return None
        return self

    def load_module(self, fullname):
        self._started(fullname)
        self._busy.add(fullname)
        try:
            __import__(fullname)
        except BaseException:
            self._failed(fullname)
            raise
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
    """The spec the other installed hooks, then the finders on ``sys.meta_path``,
    give, as the import system would ask them (``find_spec``, or a legacy
    ``find_module``).

    Not ``importlib.util.find_spec``: importing ``importlib.util`` loads
    ``contextlib``, ``collections``..., a cost every process that imports a
    watched module would pay at start-up (docs/performance.rst, "Start-up
    switches")."""
    others = [each for each in list(_WATCHING.hooks) if each is not hook]
    for finder in others + [each for each in list(sys.meta_path) if each is not _WATCHING]:
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
        self.hook._started(module.__name__)
        try:
            self.loader.exec_module(module)
        except BaseException:
            self.hook._failed(module.__name__)
            raise
        module.__loader__ = self.loader
        spec = getattr(module, "__spec__", None)
        if spec is not None and spec.loader is self:
            spec.loader = self.loader
        self.hook._done(module.__name__)


class _CallingBackLegacyLoader(_LoaderProxy):
    """The same for a loader with only ``load_module`` (it sets ``__loader__`` itself)."""

    def load_module(self, fullname):
        self.hook._started(fullname)
        try:
            module = self.loader.load_module(fullname)
        except BaseException:
            self.hook._failed(fullname)
            raise
        self.hook._done(fullname)
        return module
