"""The fix module of CVE-2026-3644 (gh-145599, commit 57e88c1c): ``Morsel.update``,
``Morsel.__ior__`` (3.9+), ``Morsel.__setstate__`` and ``Morsel.js_output`` refuse
control characters.

Its own module because the engine binds one fix module per registry row; the
code is ``_morsel``'s, which holds both of the family's fixes (gh-143919's too).
"""

from ._morsel import CVE_MORE, functions, lacks

__all__ = ["needs_fix", "replacements"]


def needs_fix(module):
    """Whether the cookie *module* (as it ships) lacks gh-145599: a throw-away morsel's
    ``js_output()`` writes a domain holding a line feed, or its ``update()`` takes one."""
    return lacks(module, CVE_MORE)


def replacements(module):
    """gh-145599's ``{"Class.attr": new}``: ``Morsel.update``, ``__setstate__`` (3.x),
    ``__ior__`` (3.9+) and ``js_output``."""
    return functions(module, CVE_MORE)
