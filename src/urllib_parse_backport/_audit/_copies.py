"""Copies of stdlib modules the fixes' registry knows (its rows' ``copies``), found by path.

Why: a distribution that vendors a stdlib module (python-future's
``future.backports``: 3.3's ``http.cookies``, ``http.client``,
``urllib.request``...) keeps the CVEs of the release it copied, whatever the
interpreter fixes. The engine applies each fix to such a copy once it is
imported under its own name (``CPYTHON_SECURITY_PATCH=1``, or the package's
``patch()``); a copy vendored under another name (``myapp._vendor.future...``)
is no module it knows. The audit lists every one, from the same rows, so
neither list can drift: one finding per fix, at the definition the fix
replaces. Whether the copy lacks a fix is decided at run time, by the fix's
probe; the audit reads no code to decide it.
"""

import io
import os
import re

from _cpython_security._registry import FIXES

__all__ = ["ISSUES", "copy_of", "check"]

#: ``{copy's dotted name: [rows the engine applies to it]}``: the rows with a fix
#: module (``urllib_parse_backport``'s copy is found by its parsers: ``_rules``,
#: ``_splitcopy``).
_ROWS = {}
for _fix in FIXES:
    for _name in _fix.copies if _fix.fix is not None else ():
        _ROWS.setdefault(_name, []).append(_fix)
#: ``{path tail: copy's dotted name}``: the file a copy is, below a ``sys.path`` directory.
_TAILS = dict((os.path.join(*name.split(".")) + ".py", name) for name in _ROWS)
ISSUES = dict((fix.cve, fix.issue) for rows in _ROWS.values() for fix in rows)


def copy_of(path):
    """The dotted name of the known copy whose file *path* is (its path ends as that
    copy's does), or None."""
    normal = os.path.normpath(path)
    for tail, name in _TAILS.items():
        if normal == tail or normal.endswith(os.sep + tail):
            return name
    return None


def _definitions(path):
    """``{top-level name: (line, text)}`` of the file's ``class`` and ``def`` lines."""
    found = {}
    with io.open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            match = re.match(r"(?:class|def)\s+(\w+)", line)
            if match:
                found.setdefault(match.group(1), (number, line.strip()))
    return found


def check(path, module, copy):
    """``[(line, function, why, cve, code, fixed_by)]`` for the file *path*, imported as
    *module*, which holds the known copy *copy*: each fix the engine applies to it."""
    definitions = _definitions(path)
    found = []
    for fix in _ROWS[copy]:
        # The first stdlib name the fix replaces, relative to its module: where it goes
        # (none: the module, where the row names no such name on this interpreter).
        places = [name[len(fix.module) + 1:] for name in fix.replaces
                  if name.startswith(fix.module + ".")]
        top = places[0].split(".")[0] if places else ""
        line, code = definitions.get(top, (1, ""))
        why = "a copy of %s: %s's fix (%s) reaches it only at run time: %s" % (
            fix.module, fix.issue, fix.cve, fix.unfixed or fix.summary)
        fixed_by = "%s.patch()" % fix.package if module == copy else None
        found.append((line, top or "<module>", why, fix.cve, code, fixed_by))
    return found
