"""The import shim: make every stdlib query-string parse in the process use the fix.

``patch()`` replaces ``parse_qs``/``parse_qsl`` of each :class:`Target` whose
parser still splits on ``';'`` or lacks ``separator`` (CVE-2021-23336,
bpo-42967), then reaches names bound *before* it ran in two ways:

1. **Aliases**: every module in ``sys.modules`` whose namespace holds an
   original function object (``from urlparse import parse_qsl``, six's cached
   ``six.moves.urllib.parse``, ``future.moves.urllib.parse``) is rebound to the
   replacement, found by identity.
2. **In place**: the original function objects themselves get a new
   ``__code__`` that forwards to the backport, so references no scan can see
   (default arguments, closures, class attributes, containers) are fixed too.
   Signature and identity of the original are kept.

``unpatch()`` restores the saved objects and code, and rebinds any alias of a
replacement made while patched (a module imported after ``patch()``). All
state lives in :data:`_state`; the first original wins, as in gevent.monkey.

Limits: a copy of the original's code made before ``patch()`` (e.g. a new
function built from ``parse_qsl.__code__``) and parsers that are not these
functions (vendored copies; frameworks' own parsers unless ``patch(frameworks=True)``,
see ``_frameworks``) are not reached.
"""

import sys
import threading
import types

from ._compat import PY2, text_type
from ._policy import DEFAULT_SEPARATOR

if PY2:  # pragma: no cover - exercised by the py27 environment
    from . import _parse2 as _backport
    STDLIB_MODULE = "urlparse"
else:
    from . import _parse3 as _backport
    STDLIB_MODULE = "urllib.parse"

__all__ = ["patch", "unpatch", "is_patched", "PatchReport", "Target", "TARGETS"]

#: Splits into two fields on an unfixed parser, one on a fixed one.
_PROBE = "a=1;b=2"
_OWN_PACKAGE = __name__.rpartition(".")[0]
_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08
_CO_GENERATOR = 0x20
_CO_COROUTINE = 0x80
_CO_ASYNC_GENERATOR = 0x200
_NO_DEFAULT = object()


class PatchReport(object):
    """What one ``patch()`` call did.

    ``changed``: names now bound to the fixed parser (``module.attribute``;
    aliases and in-place code swaps are marked as such). ``skipped``:
    ``(name, reason)`` pairs. True when something changed.
    """

    def __init__(self, forced=False):
        self.forced = forced
        self.changed = []
        self.skipped = []

    def __bool__(self):
        return bool(self.changed)

    __nonzero__ = __bool__

    def as_dict(self):
        """The report as plain data, for ``--json`` and logs."""
        return {
            "forced": self.forced,
            "changed": list(self.changed),
            "skipped": [{"target": name, "reason": reason} for name, reason in self.skipped],
        }

    def __repr__(self):
        return "<PatchReport changed=%r skipped=%r>" % (self.changed, self.skipped)


# --------------------------------------------------------------------------
# Targets: which modules patch() looks at, and when a module needs the fix.
# --------------------------------------------------------------------------

def _parameters(func):
    """``[(name, default or _NO_DEFAULT), ...]`` of a plain Python function, else None."""
    code = getattr(func, "__code__", None)
    if code is None or code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS):
        return None
    if getattr(code, "co_kwonlyargcount", 0) or getattr(code, "co_posonlyargcount", 0):
        return None
    names = code.co_varnames[:code.co_argcount]
    defaults = func.__defaults__ or ()
    padded = (_NO_DEFAULT,) * (len(names) - len(defaults)) + tuple(defaults)
    return list(zip(names, padded))


def diagnose(func):
    """How *func* (a ``parse_qsl``) behaves: the facts the shim and the self-check use.

    Detected by behaviour, not version: ``splits_semicolon`` comes from
    parsing ``'a=1;b=2'``. A ``separator`` defaulting to ``None`` is Red Hat's
    downstream fix, whose default is ``'&'`` with a warning (it is not probed,
    so no warning fires).
    """
    params = _parameters(func)
    names = dict(params) if params is not None else {}
    facts = {
        "has_separator": "separator" in names,
        "separator_default": None,
        "vendor_patched": False,
        "splits_semicolon": None,
    }
    if "separator" in names and names["separator"] is not _NO_DEFAULT:
        facts["separator_default"] = names["separator"]
    if facts["has_separator"] and facts["separator_default"] is None:
        facts["vendor_patched"] = True
        return facts
    try:
        facts["splits_semicolon"] = len(func(_PROBE)) == 2
    except Exception:  # an unknown parser: leave it to the caller to decide
        pass
    return facts


def _verdict(facts):
    """``(needs_fix, reason)`` from :func:`diagnose`'s facts."""
    if facts["vendor_patched"]:
        return False, ("vendor-patched: separator defaults to None "
                       "(Red Hat's CVE-2021-23336 fix)")
    if facts["splits_semicolon"]:
        return True, "splits on ';' (CVE-2021-23336)"
    if facts["splits_semicolon"] is None:
        return False, "unrecognised parser: probe failed"
    if not facts["has_separator"]:
        return True, "has no separator parameter (bpo-42967)"
    return False, "already fixed: splits on '&' only and has separator (bpo-42967)"


class Target(object):
    """One module whose query-string parsers ``patch()`` may replace.

    *module*: its import name. *replacements*: ``{attribute: backport
    function}``. *load*: ``"import"`` (import it), ``"loaded"`` (only if
    already in ``sys.modules``). *assess(module, verdicts)* returns
    ``(needs_fix, reason)``; *verdicts* maps the names of targets assessed
    before to theirs. *wrap(original, backport)*, if given, builds the
    replacement. Framework adapters (``_frameworks``) are instances that
    ``patch(frameworks=True)`` adds, with *forceable* false.
    """

    #: Whether ``patch(force=True)`` patches it even when *assess* says no.
    forceable = True

    def __init__(self, module, replacements, load="import", assess=None, wrap=None):
        self.module = module
        self.replacements = replacements
        self.load = load
        self.assess = assess or _assess_own_parse_qsl
        self.wrap = wrap

    def __repr__(self):
        return "<Target %s>" % (self.module,)


def _assess_own_parse_qsl(module, verdicts):
    return _verdict(diagnose(module.parse_qsl))


def _assess_like_stdlib(module, verdicts):
    """cgi's parse_qs/parse_qsl only forward to the stdlib parser: same verdict."""
    return verdicts.get(STDLIB_MODULE, (False, "stdlib parser not assessed"))


def _forwarding_copy(original, rewrite_query, filename):
    """A function with *original*'s signature that calls a copy of *original*
    on ``rewrite_query(qs)``; None for a signature it does not know. The copy
    matters: patch() also swaps the original's code to forward here."""
    params = _parameters(original)
    if params is None:
        return None
    names = [name for name, _ in params]
    source = (
        "def {name}({params}):\n"
        "    return _original(_rewrite({first}){rest})\n"
    ).format(name=original.__name__, params=", ".join(names), first=names[0],
             rest="".join(", " + name for name in names[1:]))
    namespace = {"_original": _copy(original), "_rewrite": rewrite_query}
    exec(compile(source, filename, "exec"), namespace)
    replacement = namespace[original.__name__]
    replacement.__defaults__ = original.__defaults__
    replacement.__doc__ = original.__doc__
    replacement.__module__ = __name__
    return replacement


def _escape_semicolons(original, backport):
    """For future.backports' own copy (3.3's parser, on 2.7 and 3.x): keep it, but
    pass ``';'`` as ``%3B`` so it is data, which the copy's unquote turns back
    into ``';'``. Keeps future's own result types (``newstr``) and signature."""
    return _forwarding_copy(original, _escape, "<urllib_parse_backport shim>")


def _escape(qs):
    if isinstance(qs, text_type):
        return qs.replace(u";", u"%3B")
    try:
        return qs.replace(b";", b"%3B")
    except (AttributeError, TypeError):
        return qs


_PUBLIC = {"parse_qs": _backport.parse_qs, "parse_qsl": _backport.parse_qsl}

#: What ``patch()`` looks at, in order; ``patch(frameworks=True)`` adds
#: ``_frameworks.ADAPTERS`` after them.
TARGETS = [
    Target(STDLIB_MODULE, _PUBLIC),
    # 2.7, 3.6, 3.7: cgi.parse_qs/parse_qsl (removed in 3.8, bpo-33843). cgi.parse
    # and FieldStorage call the stdlib module's functions at call time, so
    # an unloaded cgi needs nothing; patch() never imports it (3.11+ warns).
    Target("cgi", _PUBLIC, load="loaded", assess=_assess_like_stdlib),
    # python-future's own copy of 3.3's urllib.parse, vulnerable everywhere.
    Target("future.backports.urllib.parse", _PUBLIC, load="installed",
           wrap=_escape_semicolons),
]


# --------------------------------------------------------------------------
# State: what patch() changed, so unpatch() can put back the exact objects.
# --------------------------------------------------------------------------

class _State(object):
    def __init__(self):
        self.lock = threading.RLock()
        #: [(namespace dict, key, original, replacement, label)]
        self.bindings = []
        #: [(original function, its original __code__)]
        self.codes = []
        #: id(original) -> replacement, cached so patch/unpatch/patch reuses objects.
        self.replacement_cache = {}
        #: diagnose() of the stdlib parse_qsl taken before patching.
        self.stdlib_facts = None
        self.report = None
        #: Whether the framework adapters have been applied since the last unpatch().
        self.frameworks = False
        #: Adapters waiting for their module's import: {module name: [adapter]},
        #: and the post-import hook that applies them.
        self.waiting = {}
        self.hook = None


_state = _State()

#: Where the in-place code of an original forwards to; entries are never
#: removed, so a call racing with unpatch() still finds its way.
_ROUTES = {}


def _module_dict(module):
    """The namespace of *module*, or of the module a proxy in ``sys.modules``
    wraps (Twisted's deprecation proxy keeps it in ``_module``), else None."""
    try:
        if not issubclass(type(module), types.ModuleType):  # proxies fake __class__
            wrapped = object.__getattribute__(module, "__dict__").get("_module")
            if isinstance(wrapped, types.ModuleType):
                module = wrapped
        namespace = object.__getattribute__(module, "__dict__")
    except Exception:  # not a module-like object; lazy modules are not loaded
        return None
    return namespace if isinstance(namespace, dict) else None


def _is_own(name):
    return name == _OWN_PACKAGE or name.startswith(_OWN_PACKAGE + ".")


def _scan(replace, report_label=None):
    """Rebind, in every loaded module, each value ``v`` with ``id(v)`` in *replace*.

    Returns ``[(namespace, key, old, new, label)]``.
    """
    found = []
    seen = set()
    for name, module in list(sys.modules.items()):
        if module is None or _is_own(name):
            continue
        namespace = _module_dict(module)
        if namespace is None or id(namespace) in seen:
            continue
        seen.add(id(namespace))
        for key, value in list(namespace.items()):
            new = replace.get(id(value))
            if new is not None and new[0] is value:
                namespace[key] = new[1]
                found.append((namespace, key, value, new[1], "%s.%s" % (name, key)))
    return found


def _copy(func):
    """A distinct function object running *func*'s code: tells shim bindings apart
    from the public backport functions (which unpatch() must never touch)."""
    copy = types.FunctionType(func.__code__, func.__globals__, func.__name__,
                              func.__defaults__, func.__closure__)
    copy.__doc__ = func.__doc__
    copy.__dict__.update(func.__dict__)
    copy.__module__ = func.__module__
    if hasattr(func, "__qualname__"):
        copy.__qualname__ = func.__qualname__
    return copy


def _none_means_default(func, params):
    """For a forced patch over Red Hat's parser, whose callers (its cgi) pass
    ``separator=None`` to mean "the default"."""
    index = [name for name, _ in params].index("separator")

    def replacement(*args, **kwargs):
        if len(args) > index and args[index] is None:
            args = args[:index] + (DEFAULT_SEPARATOR,) + args[index + 1:]
        elif "separator" in kwargs and kwargs["separator"] is None:
            kwargs["separator"] = DEFAULT_SEPARATOR
        return func(*args, **kwargs)

    for attribute in ("__name__", "__doc__", "__module__"):
        setattr(replacement, attribute, getattr(func, attribute))
    replacement.__wrapped__ = func  # inspect.signature() shows the backport's
    return replacement


def _replacement(target, original, backport):
    cached = _state.replacement_cache.get(id(original))
    if cached is not None and cached[0] is original:
        return cached[1]
    params = _parameters(original)
    if target.wrap is not None:
        replacement = target.wrap(original, backport)
    elif params is not None and dict(params).get("separator", _NO_DEFAULT) is None:
        replacement = _none_means_default(backport, params)
    else:
        replacement = _copy(backport)
    if replacement is not None:
        _state.replacement_cache[id(original)] = (original, replacement)
    return replacement


def _swap_code(original, replacement, label):
    """Give *original* code forwarding to *replacement*; None if it cannot be done.

    A generator function (WebOb's parser) gets generator code, so the swap keeps
    its kind: 3.13 warns on assigning code of another kind."""
    params = _parameters(original)
    if params is None or not isinstance(original, types.FunctionType):
        return None
    if original.__closure__:
        return None
    kind = original.__code__.co_flags & (_CO_GENERATOR | _CO_COROUTINE | _CO_ASYNC_GENERATOR)
    if kind not in (0, _CO_GENERATOR):
        return None
    names = [name for name, _ in params]
    source = (
        "def {name}({params}):\n"
        "    {forward} __import__({module!r}, None, None, ('_ROUTES',))._ROUTES[{key!r}]"
        "({params}){tail}\n"
    ).format(name=original.__name__, params=", ".join(names), module=__name__, key=label,
             forward="for _item in" if kind else "return",
             tail=": yield _item" if kind else "")
    namespace = {}
    exec(compile(source, "<urllib_parse_backport shim>", "exec"), namespace)
    _ROUTES[label] = replacement
    saved = original.__code__
    original.__code__ = namespace[original.__name__].__code__
    return saved


def _load(target, report):
    module = sys.modules.get(target.module)
    if module is not None:
        return module
    if target.load == "loaded":
        report.skipped.append((target.module, "not imported: nothing bound to patch"))
        return None
    if target.load == "installed":
        top = target.module.partition(".")[0]
        if top not in sys.modules and not _installed(top):
            report.skipped.append((target.module, "not installed"))
            return None
    try:
        __import__(target.module)
    except Exception as exc:  # e.g. a warning turned into an error by -W error
        report.skipped.append((target.module, "import failed: %s: %s"
                               % (type(exc).__name__, exc)))
        return None
    return sys.modules[target.module]


def _installed(top):
    if PY2:  # pragma: no cover - exercised by the py27 environment
        import pkgutil  # unlike imp.find_module, also looks in zip archives (eggs)
        try:
            return pkgutil.find_loader(top) is not None
        except ImportError:
            return False
    import importlib.util
    return importlib.util.find_spec(top) is not None


def patch(force=False, frameworks=False):
    """Make the process's ``parse_qs``/``parse_qsl`` split on ``'&'`` only (bpo-42967).

    Replaces the parsers of every target that still splits on ``';'`` or
    lacks ``separator``: ``urlparse`` (2.7) or ``urllib.parse``, ``cgi``'s
    copies where loaded, python-future's ``future.backports.urllib.parse``,
    and every alias of them in loaded modules; already-fixed or vendor-patched
    parsers are left alone unless *force* is true. *frameworks*: also the
    framework adapters (Django 1.11, WebOb, CherryPy, Twisted Web, old Bottle:
    parsers of their own), which are never forced.
    Idempotent and thread-safe: once patched, returns the report of the call
    that patched; a later ``frameworks=True`` adds the adapters to it, any
    other change of options needs ``unpatch()`` first.
    Returns a :class:`PatchReport`.
    """
    with _state.lock:
        if _state.report is None:  # not patched since the last unpatch()
            _state.report = PatchReport(forced=bool(force))
            _apply(TARGETS, _state.report, force)
        if frameworks and not _state.frameworks:
            _state.frameworks = True
            _apply_adapters(_state.report)
        return _state.report


#: Report reason of an adapter whose framework is installed but not imported yet.
WAITING = "not imported yet: patched when imported"


def _apply_adapters(report):
    """Apply the framework adapters of imported frameworks now, and of the other
    installed ones right after their import (never importing them here)."""
    from ._frameworks import ADAPTERS
    from ._import_hook import PostImportHook
    now, later = [], {}
    for adapter in ADAPTERS:
        top = adapter.module.partition(".")[0]
        if adapter.module in sys.modules:
            now.append(adapter)
        elif top in sys.modules or _installed(top):
            later.setdefault(adapter.module, []).append(adapter)
            report.skipped.append((adapter.module, WAITING))
        else:
            report.skipped.append((adapter.module, "not installed"))
    _apply(now, report, False)
    if later:
        _state.waiting = later
        _state.hook = PostImportHook(later, _on_import)
        _state.hook.install()


def _on_import(name):
    """The post-import callback: apply the adapters waiting for module *name*."""
    with _state.lock:
        adapters = _state.waiting.pop(name, None)
        report = _state.report
        if not adapters or report is None:
            return
        report.skipped[:] = [entry for entry in report.skipped if entry != (name, WAITING)]
        try:
            _apply(adapters, report, False)
        except Exception as exc:  # never break the application's import
            report.skipped.append((name, "adapter failed: %s: %s" % (type(exc).__name__, exc)))


def _apply(targets, report, force):
    """Patch those of *targets* that need it, recording what happened in *report*."""
    verdicts = {}
    replace = {}
    for target in targets:
        module = _load(target, report)
        if module is None:
            continue
        if target.module == STDLIB_MODULE and _state.stdlib_facts is None:
            _state.stdlib_facts = diagnose(module.parse_qsl)
        try:
            needs_fix, reason = target.assess(module, verdicts)
        except Exception as exc:
            needs_fix, reason = False, "assessment failed: %s: %s" % (
                type(exc).__name__, exc)
        verdicts[target.module] = (needs_fix, reason)
        if not needs_fix and not (force and target.forceable):
            report.skipped.append((target.module, reason))
            continue
        namespace = _module_dict(module)
        for attribute, backport in sorted(target.replacements.items()):
            label = "%s.%s" % (target.module, attribute)
            original = namespace.get(attribute)
            if original is None:
                report.skipped.append((label, "absent"))
                continue
            replacement = _replacement(target, original, backport)
            if replacement is None:
                report.skipped.append((label, "unsupported signature"))
                continue
            replace[id(original)] = (original, replacement)
    # Aliases (the targets' own bindings included) by identity...
    for binding in _scan(replace):
        _state.bindings.append(binding)
        report.changed.append(binding[4])
    # ...then the originals themselves, for references no scan can see.
    for original, replacement in replace.values():
        label = "%s.%s" % (original.__module__, original.__name__)
        saved = _swap_code(original, replacement, label)
        if saved is None:
            report.skipped.append((label + " (in place)", "unsupported signature"))
        else:
            _state.codes.append((original, saved))
            report.changed.append(label + " (in place)")


def unpatch():
    """Undo :func:`patch`: every changed name is bound to its exact original again.

    Also restores aliases of the replacements made while patched (modules
    imported after ``patch()``). Does nothing when not patched.
    """
    with _state.lock:
        for original, code in reversed(_state.codes):
            original.__code__ = code
        restore = {}
        for namespace, key, original, replacement, _ in reversed(_state.bindings):
            if namespace.get(key) is replacement:
                namespace[key] = original
            restore[id(replacement)] = (replacement, original)
        _scan(restore)
        del _state.bindings[:]
        del _state.codes[:]
        _state.report = None
        _state.frameworks = False
        if _state.hook is not None:
            _state.hook.uninstall()
            _state.hook = None
        _state.waiting = {}


def is_patched():
    """True while :func:`patch` has changed something that :func:`unpatch` has not undone."""
    with _state.lock:
        return bool(_state.bindings or _state.codes)


def stdlib_facts():
    """:func:`diagnose` of the stdlib ``parse_qsl`` as it was before any patch."""
    with _state.lock:
        if _state.bindings or _state.codes:
            return dict(_state.stdlib_facts)
        return diagnose(sys.modules[STDLIB_MODULE].parse_qsl if STDLIB_MODULE in sys.modules
                        else __import__(STDLIB_MODULE, None, None, ("parse_qsl",)).parse_qsl)


_ACTIVATION_VARIABLE = "URLLIB_PARSE_BACKPORT_PATCH"


def _startup(environ=None):
    """Called by the ``.pth`` file at start-up when URLLIB_PARSE_BACKPORT_PATCH is set.

    ``1``/``true``/``yes``/``on`` -> ``patch()``; ``force`` -> ``patch(force=True)``;
    ``frameworks`` -> ``patch(frameworks=True)``; anything else (``0``, ``off``,
    empty) -> nothing.
    """
    import os
    value = (environ if environ is not None else os.environ).get(_ACTIVATION_VARIABLE, "")
    value = value.strip().lower()
    if value == "force":
        return patch(force=True)
    if value == "frameworks":
        return patch(frameworks=True)
    if value in ("1", "true", "yes", "on"):
        return patch()
    return None
