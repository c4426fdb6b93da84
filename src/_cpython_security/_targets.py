"""Where a fix goes: each row's stdlib module and its copies, and the places a fix names.

Why a module of its own: a fix module is written for a stdlib module, and
the same code may live under other names (a row's ``copies``: python-future
vendors 3.3's ``http.cookies``, ``http.client``, ``urllib.request``... as
``future.backports.*``). The engine treats each as one more target of the
row; this module says which modules those are, as this process holds them,
and where a replacement's dotted path lands in one.
"""

import sys

from ._ledger import ABSENT
from ._rebind import module_namespace

__all__ = ["targets", "find_modules", "resolve", "value", "NOT_LOADED"]

#: A stdlib module a health check called inside ``patch()`` finds not loaded: it does
#: not import it there (``_ledger.called_inside``), and counts the fix as needed.
NOT_LOADED = type("NotLoaded", (object,), {"__slots__": ()})()


def targets(fixes):
    """``[(fix, module name)]``: each fix's stdlib module, then its copies."""
    return [(fix, name) for fix in fixes for name in (fix.module,) + fix.copies]


def find_modules(fixes, loaded_only=False):
    """``{name: module or None}`` of every target of *fixes*. Each stdlib module is
    imported (never under the engine's lock: a first import may run the start-up
    hook, which calls ``patch()``); a copy is only looked up, since importing a
    distribution is the application's choice, and one it has not imported yet
    holds nothing to fix. *loaded_only*: nothing is imported, and a stdlib module
    not loaded is :data:`NOT_LOADED`."""
    found = {}
    for fix in fixes:
        if fix.module in found:
            pass
        elif loaded_only:
            found[fix.module] = sys.modules.get(fix.module, NOT_LOADED)
        else:
            try:
                __import__(fix.module)
                found[fix.module] = sys.modules[fix.module]
            except ImportError:  # a module this interpreter does not ship
                found[fix.module] = None
        for name in fix.copies:
            found[name] = sys.modules.get(name)
    return found


def resolve(module, path):
    """The place *path* names in *module*: ``(holder, key, kind, label)``.

    ``kind``: ``False`` for a module name (a dict), ``"class"`` for a class
    attribute (read from the class's own ``__dict__``, written by setattr)."""
    namespace = module_namespace(module)
    owner, _, attribute = path.rpartition(".")
    label = "%s.%s" % (namespace.get("__name__"), path)
    if not owner:
        return namespace, path, False, label
    return namespace[owner], attribute, "class", label


def value(holder, key, kind):
    """What the place holds (a class: its own ``__dict__``), or ``ABSENT``."""
    if kind:
        return holder.__dict__.get(key, ABSENT)
    return holder.get(key, ABSENT)
