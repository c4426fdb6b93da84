"""What ``patch()`` looks at: the modules whose parsers may need the fix, and how to tell.

A parser needs the fix when it splits ``'a=1;b=2'`` in two or has no
``separator`` parameter (CVE-2021-23336, bpo-42967). Detected by behaviour,
never by version, so distro backports and Red Hat's downstream fix are seen
as what they are.
"""

import sys

from _cpython_security._rows import fixes_of

from .._compat import STDLIB_MODULE, is_installed
from .._parse import parse_qs, parse_qsl
from .._policy import DEFAULT_SEPARATOR
from .._report import failure
from ._surgery import NO_DEFAULT, copy_function, forwarding_copy, parameters
from . import _split

__all__ = ["Target", "TARGETS", "diagnose", "verdict", "replacement_for", "separating_copy",
           "load"]

#: Splits into two fields on an unfixed parser, one on a fixed one.
PROBE = "a=1;b=2"


def diagnose(func):
    """How *func* (a ``parse_qsl``) behaves: the facts the shim and the self-check use.

    ``splits_semicolon`` comes from parsing ``'a=1;b=2'``. A ``separator``
    defaulting to ``None`` is Red Hat's downstream fix, whose default is
    ``'&'`` with a warning (it is not probed, so no warning fires).
    """
    params = parameters(func)
    names = dict(params) if params is not None else {}
    facts = {
        "has_separator": "separator" in names,
        "separator_default": None,
        "vendor_patched": False,
        "splits_semicolon": None,
    }
    if "separator" in names and names["separator"] is not NO_DEFAULT:
        facts["separator_default"] = names["separator"]
    if facts["has_separator"] and facts["separator_default"] is None:
        facts["vendor_patched"] = True
        return facts
    try:
        facts["splits_semicolon"] = len(func(PROBE)) == 2
    except Exception:  # an unknown parser: leave it to the caller to decide
        pass
    return facts


def verdict(facts):
    """``(needs_fix, reason)`` from :func:`diagnose`'s facts."""
    if facts["vendor_patched"]:
        return False, ("vendor-patched: separator defaults to None "
                       "(Red Hat's CVE-2021-23336 fix)")
    if facts["splits_semicolon"]:
        return True, "splits on ';' (CVE-2021-23336)"
    if facts["splits_semicolon"] is None:
        return False, failure("unrecognised parser: probe failed")
    if not facts["has_separator"]:
        return True, "has no separator parameter (bpo-42967)"
    return False, "already fixed: splits on '&' only and has separator (bpo-42967)"


class Target(object):
    """One module whose query-string parsers ``patch()`` may replace.

    *module*: its import name. *replacements*: ``{attribute: backport
    function}``. *load*: ``"import"`` (import it), ``"installed"`` (import it
    if installed), ``"loaded"`` (only if already in ``sys.modules``).
    *assess(module, verdicts)* returns ``(needs_fix, reason)``; *verdicts*
    maps the names of targets assessed before to theirs. *wrap(original,
    backport)*, if given, builds the replacement. *name*: the target's name
    in verdicts (default: *module*). *cves*: the fixes it applies
    (``patch(leave_out=...)`` naming them all leaves it alone).
    """

    #: Whether ``patch(force=True)`` patches it even when *assess* says no.
    forceable = True
    #: Whether a method (``Class.method``) is bound on its class (the ledger's
    #: class attribute) instead of getting the code swap.
    binds_class = False

    def __init__(self, module, replacements, load="import", assess=None, wrap=None,
                 name=None, cves=("CVE-2021-23336",), cache=True):
        self.module = module
        self.replacements = replacements
        self.load = load
        self.assess = assess or _assess_own_parse_qsl
        self.wrap = wrap
        self.name = name or module
        self.cves = frozenset(cves)
        #: Whether a replacement is kept for the next patch() (not when it
        #: depends on the options, as the urlsplit one does).
        self.cache = cache

    def __repr__(self):
        return "<Target %s>" % (self.module,)


def _assess_own_parse_qsl(module, verdicts):
    return verdict(diagnose(module.parse_qsl))


def _assess_like_stdlib(module, verdicts):
    """cgi's parse_qs/parse_qsl only forward to the stdlib parser: same verdict."""
    return verdicts.get(STDLIB_MODULE, (False, "stdlib parser not assessed"))


def separating_copy(original, backport):
    """A replacement that keeps *original*, a parser splitting on ``'&'`` and
    ``';'`` (future.backports' copy of 3.3's, a framework's own), but rewrites
    the query first (``_rewrite.separate_by_policy``), so that it splits the
    fields the backport splits, with the operator's separator: ``';'`` reaches
    it as ``%3B`` (data), which its own unquote turns back into ``';'``. Keeps
    its result types (future's ``newstr``) and signature; None for a signature
    it does not know. (``_rewrite`` is imported here, not at start-up, where
    the stdlib parser needs no rewrite.)"""
    from .._rewrite import separate_by_policy
    return forwarding_copy(original, separate_by_policy, "<urllib_parse_backport shim>")


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


def replacement_for(target, original, backport):
    """The function that replaces *original* (a parser of *target*); None when
    its signature is not one the shim knows."""
    params = parameters(original)
    if target.wrap is not None:
        return target.wrap(original, backport)
    if params is not None and dict(params).get("separator", NO_DEFAULT) is None:
        return _none_means_default(backport, params)
    return copy_function(backport)


_BACKPORT = {"parse_qs": parse_qs, "parse_qsl": parse_qsl}

#: What ``patch()`` looks at, in order; ``patch(frameworks=True)`` adds
#: ``_frameworks.ADAPTERS`` after them.
TARGETS = [
    Target(STDLIB_MODULE, _BACKPORT),
    # 2.7, 3.6, 3.7: cgi.parse_qs/parse_qsl (removed in 3.8, bpo-33843). cgi.parse
    # and FieldStorage call the stdlib module's functions at call time, so
    # an unloaded cgi needs nothing; patch() never imports it (3.11+ warns).
    Target("cgi", _BACKPORT, load="loaded", assess=_assess_like_stdlib),
] + [
    # The registry's copies of the stdlib module (python-future's own copy of 3.3's
    # urllib.parse, vulnerable everywhere): its parser, rewritten.
    Target(copy, _BACKPORT, load="installed", wrap=separating_copy)
    for copy in fixes_of("urllib_parse_backport")[0].copies
] + [
    # urlsplit, and urlparse/urljoin through it (CVE-2022-0391, CVE-2023-24329,
    # CVE-2024-11168, CVE-2025-0938): see _split.
    Target(STDLIB_MODULE, {"urlsplit": None}, assess=_split.assess, wrap=_split.build,
           name=_split.NAME, cves=_split.CVES, cache=False),
]


def load(target, report):
    """The module of *target*, imported as its *load* policy allows, or None
    (with the reason in *report*)."""
    module = sys.modules.get(target.module)
    if module is not None:
        return module
    if target.load == "loaded":
        report.skipped.append((target.module, "not imported: nothing bound to patch"))
        return None
    if target.load == "installed":
        top = target.module.partition(".")[0]
        if top not in sys.modules and not is_installed(top):
            report.skipped.append((target.module, "not installed"))
            return None
    try:
        __import__(target.module)
    except Exception as exc:  # e.g. a warning turned into an error by -W error
        report.skipped.append((target.module, failure("import failed: %s: %s"
                                                      % (type(exc).__name__, exc))))
        return None
    return sys.modules[target.module]
