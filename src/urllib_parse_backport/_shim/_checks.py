"""Framework checks a fix breaks, and each framework's own fix for them, as adapters.

bpo-43882 (CVE-2022-0391) makes ``urlsplit`` remove tab, CR and LF. Django's
``URLValidator`` matches its pattern against ``urlunsplit(urlsplit(value))``
when the value itself does not match (its IDN branch), so once ``urlsplit``
removes them it accepts ``'http://www.djangoproject.com/\\n'``,
``'http://[::ffff:192.9.5.5]\\n'`` and ``'http://exam\\tple.com/'``
(CVE-2021-32052, Django ticket #32713): a value that writes a header line
where it is echoed. Django fixed it in 2.2.22, 3.1.10 and 3.2.2, its
``URLValidator.__call__`` refusing any of them first; 1.11 and 3.0 never got
the fix. The interpreter's own ``urlsplit`` removes them from 3.6.14, 3.7.11,
3.8.11 and 3.9.5 on; this package's removes them on 2.7. Either way the
adapter is Django's fix, bound where a probe shows the validator accepts such
a URL in this process, never where its own check or a ``urlsplit`` that keeps
the newline already refuses it. ``patch(frameworks=True)`` applies it, as it
applies the query-parser adapters (``_frameworks``); never forced.
"""

from .._compat import PY2, string_types, text_type
from .._report import failure
from ._surgery import copy_function, parameters
from ._targets import Target

__all__ = ["CheckAdapter", "CHECKS", "UNSAFE_CHARS"]

if PY2:  # pragma: no cover - exercised by the py27 environment
    #: Django 1.11 reads a byte string as text (force_text): both are checked.
    _TEXT = string_types
else:
    #: Django's fix checks a str only (2.2.22: bytes go to the rest unchecked).
    _TEXT = (text_type,)

#: Django's ``URLValidator.unsafe_chars`` (CVE-2021-32052): what bpo-43882's
#: ``_UNSAFE_URL_BYTES_TO_REMOVE`` removes.
UNSAFE_CHARS = frozenset(u"\t\r\n")


class CheckAdapter(Target):
    """A :class:`Target` for a framework check that a fix breaks: *module*, *attribute*
    (``Class.method``: bound on the class, since Django 2.0+'s method calls the
    zero-argument ``super()``, a closure no code swap takes), *accepts(module)* (whether the check,
    as this process calls it, accepts what it must refuse), *wrap* (the
    framework's own fix). *cve*: the framework's; *after*: the CPython fix whose
    behaviour breaks the check; *summary*, *issue* and *exposed*: the self-check's
    words. Never forced, never left out by ``leave_out`` (which names this
    package's fixes only: the framework's is needed wherever the probe says so).
    """

    forceable = False
    binds_class = True

    def __init__(self, module, attribute, accepts, wrap, cve, after, issue, summary, exposed,
                 fixed):
        Target.__init__(self, module, {attribute: None}, load="installed",
                        assess=self._assess, wrap=wrap, cves=(cve,))
        self.attribute = attribute
        self.accepts = accepts
        self.cve = cve
        self.after = after
        self.issue = issue
        self.summary = summary
        self.exposed = exposed
        #: What the self-check says of a check the adapter fixed.
        self.fixed = fixed

    def _assess(self, module, verdicts):
        label = "%s.%s" % (self.module, self.attribute)
        if getattr(module, self.attribute.partition(".")[0], None) is None:
            return False, "%s not found: unknown version" % (label,)
        try:
            accepts = self.accepts(module)
        except Exception as exc:
            return False, failure("unrecognised check: probe failed: %s: %s" % (
                type(exc).__name__, exc))
        if accepts:
            return True, self.exposed
        return False, "refuses tab, CR and LF (its own check, or a urlsplit that keeps them)"


#: The probe: the first of Django's test values for CVE-2021-32052.
PROBE_URL = "http://www.djangoproject.com/\n"


def _url_validator_accepts(module):
    """Whether ``URLValidator()`` accepts :data:`PROBE_URL` (no settings needed)."""
    try:
        module.URLValidator()(PROBE_URL)
    except module.ValidationError:
        return False
    return True


def _refusal_carries_value(call, validator, error):
    """Whether this Django's own refusals carry ``params={'value': value}`` (3.2+),
    read from a fresh *validator*'s refusal of ``''``, which every version
    refuses (no scheme)."""
    try:
        call(validator(), u"")
    except error as refused:
        return getattr(refused, "params", None) is not None
    return False


def _refusing_unsafe_chars(original, backport):
    """Django's fix of CVE-2021-32052 around *original* (``URLValidator.__call__``):
    a text value holding any of ``self.unsafe_chars`` (Django's attribute where
    a subclass sets one, else :data:`UNSAFE_CHARS`) raises ``ValidationError``
    with the validator's message and code, as 2.2.22, 3.1.10 and 3.2.2 do
    before anything else (a value that is no text is the original's to judge);
    every other value goes to the original. None for a signature it does not
    know."""
    params = parameters(original)
    if params is None or [name for name, _ in params] != ["self", "value"]:
        return None
    namespace = original.__globals__
    error, validator = namespace.get("ValidationError"), namespace.get("URLValidator")
    if error is None or validator is None:
        return None
    call = copy_function(original)
    try:
        with_value = _refusal_carries_value(call, validator, error)
    except Exception:  # not a URLValidator this fix knows: left alone, never half-patched
        return None

    def __call__(self, value):
        if isinstance(value, _TEXT) and getattr(
                self, "unsafe_chars", UNSAFE_CHARS).intersection(value):
            if with_value:
                raise error(self.message, code=self.code, params={"value": value})
            raise error(self.message, code=self.code)
        return call(self, value)

    __call__.__doc__ = original.__doc__
    if hasattr(original, "__qualname__"):
        __call__.__qualname__ = original.__qualname__
    return __call__


#: What ``patch(frameworks=True)`` applies after the query-parser adapters.
CHECKS = [
    # Django 1.11, 2.0-2.2.21, 3.0, 3.1-3.1.9, 3.2-3.2.1: URLValidator re-checks
    # urlunsplit(urlsplit(value)), which bpo-43882 leaves without tab, CR, LF.
    CheckAdapter(
        "django.core.validators", "URLValidator.__call__", _url_validator_accepts,
        _refusing_unsafe_chars, cve="CVE-2021-32052", after="CVE-2022-0391",
        issue="Django #32713",
        summary="Django's URLValidator accepts tab, CR and LF once urlsplit removes them "
                "(header injection)",
        exposed="accepts %r once urlsplit removes tab, CR and LF (CVE-2021-32052)"
                % (PROBE_URL,),
        fixed="the adapter added Django's own check (CVE-2021-32052): refuses tab, CR "
              "and LF"),
]
