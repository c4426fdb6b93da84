"""Rebinding a function's aliases in every loaded module, by identity.

Why: ``patch()`` must reach the names bound before it ran (``from
http.cookies import _unquote``), and ``unpatch()`` must put back the exact
objects, never touching a binding someone else made since. The bindings are
found by identity in the modules' namespaces, read without running any code
of a module's class, so a lazy module stays unloaded.
"""

import sys
import types

__all__ = ["module_namespace", "rebind"]

#: The C-level ``__dict__`` of modules and of instances: reading through them runs
#: no Python code, where ``module.__dict__`` runs a ``__dict__`` property that a
#: lazy module class defines (apipkg's ``ApiModule``, used by ``py``, loads every
#: attribute then).
_MODULE_DICT = types.ModuleType.__dict__["__dict__"]
_INSTANCE_DICT = type(type("_Plain", (object,), {}).__dict__["__dict__"])  # getset_descriptor


def _instance_dict(obj):
    """*obj*'s own ``__dict__`` through the C descriptor its class got from ``type``,
    or None (no such descriptor, or one a class overrides in Python)."""
    for klass in type(obj).__mro__:
        descriptor = klass.__dict__.get("__dict__")
        if descriptor is not None:
            if type(descriptor) is not _INSTANCE_DICT:
                return None
            return descriptor.__get__(obj, type(obj))
    return None


def module_namespace(module):
    """The namespace of *module*, or of the module a proxy in ``sys.modules``
    wraps (Twisted's deprecation proxy keeps it in ``_module``), else None.

    Runs no code of the module's class: a lazy module stays unloaded, and an
    object whose class defines ``__dict__`` in Python is skipped."""
    try:
        if not issubclass(type(module), types.ModuleType):  # proxies fake __class__
            own = _instance_dict(module)
            if not isinstance(own, dict):
                return None
            module = own.get("_module")
            if not issubclass(type(module), types.ModuleType):
                return own  # a plain object standing in for a module
        namespace = _MODULE_DICT.__get__(module, types.ModuleType)
    except Exception:  # not a module-like object
        return None
    return namespace if isinstance(namespace, dict) else None


def _name_of(namespace, name):
    """The module's own name, else the one ``sys.modules`` holds it under: a module
    held under two names (six's ``six.moves.http_cookies`` is ``Cookie``) is
    labelled the same whichever the scan meets first."""
    own = namespace.get("__name__")
    return own if isinstance(own, str) and own else name


def rebind(replace, only=None, skip=None, bind=None):
    """Rebind, in every loaded module (or in the modules named in *only*) but the
    package *skip* and its modules, each value ``v`` with ``replace[id(v)] == (v,
    new)`` to ``new``.

    *bind*: ``bind(namespace, key, new, label, old=v)`` makes each change (a
    ``_ledger.Ledger``'s, which records it in the same step); by default the
    namespace is written here. Returns ``[(namespace, key, old, new, "module.key")]``.
    """
    found = []
    seen = set()
    wanted = set(replace)
    if only is None:
        modules = list(sys.modules.items())
    else:
        modules = [(name, sys.modules.get(name)) for name in sorted(only)]
    for name, module in modules:
        if module is None or (skip is not None and (
                name == skip or name.startswith(skip + "."))):
            continue
        if type(module) is types.ModuleType:  # the common case, without a call
            namespace = _MODULE_DICT.__get__(module, types.ModuleType)
        else:
            namespace = module_namespace(module)
        if namespace is None or id(namespace) in seen:
            continue
        seen.add(id(namespace))
        # Most modules hold none of the originals: tell so in C, then look closer.
        if wanted.isdisjoint(map(id, list(namespace.values()))):
            continue
        for key, value in list(namespace.items()):
            new = replace.get(id(value))
            if new is not None and new[0] is value:
                label = "%s.%s" % (_name_of(namespace, name), key)
                if bind is None:
                    namespace[key] = new[1]
                else:
                    bind(namespace, key, new[1], label, old=value)
                found.append((namespace, key, value, new[1], label))
    return found
