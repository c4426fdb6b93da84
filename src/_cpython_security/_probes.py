"""The behaviour probes: does this interpreter's stdlib module need a fix? No imports.

Why here: the start-up switch asks before importing any package (importing
one is the cost it avoids), and a package's ``is_vulnerable()`` asks the
same question: one answer, in one place. A probe reads the module it is
given and never changes it; a probe that raises counts as "needs it".
"""

__all__ = ["cookie_unquote_quadratic"]


def cookie_unquote_quadratic(module):
    """Whether the cookie module's ``_unquote`` (``http.cookies``, 2.7's ``Cookie``)
    is not gh-123067's single pass (CVE-2024-7592).

    The fix calls ``_unquote_sub`` (one ``re.sub`` over the value); the
    quadratic loop searches ``_OctalPatt`` again from every escape. Only the
    fix's shape counts as fixed: any other shape is patched, which changes no
    output (the replacement's is the fix's)."""
    return unquote_needs_fix(getattr(module, "_unquote"))


def unquote_needs_fix(function):
    """:func:`cookie_unquote_quadratic` for the function itself (it may have been replaced)."""
    names = function.__code__.co_names
    return "_unquote_sub" not in names or "_OctalPatt" in names
