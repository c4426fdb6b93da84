"""What the *default* separator means: upstream's ``'&'``, or the operator's choice.

``parse_qs``/``parse_qsl`` use :data:`DEFAULT_SEPARATOR` as the default of
their ``separator`` parameter. It is equal to ``'&'`` (so signatures read
``separator='&'``, as upstream's since bpo-42967), but it is a private object
compared by identity, so the parsers can tell "no separator given" from an
explicit ``separator='&'``. Only the former follows this module's settings:

* ``PYTHON_URLLIB_QS_SEPARATOR``, the variable of Red Hat's downstream fix
  (``&``, ``;``, any one character, or ``legacy`` = split on both);
* ``URLLIB_PARSE_BACKPORT_WARN``, opt-in :class:`QuerySeparatorWarning` when a
  query holding ``';'`` is parsed with the default ``'&'``.

The environment is read once, at import, because an ``os.environ`` lookup on
every call would cost more than the parse of a short query; call
:func:`read_environment` after changing it.
"""

import os
import warnings

from ._compat import PY2, text_type

__all__ = ["DEFAULT_SEPARATOR", "QuerySeparatorWarning", "read_environment", "apply_default",
           "problem"]

#: Red Hat's variable (Fedora/RHEL patch 00359 for CVE-2021-23336).
SEPARATOR_VARIABLE = "PYTHON_URLLIB_QS_SEPARATOR"
#: This package's opt-in switch for :class:`QuerySeparatorWarning`.
WARN_VARIABLE = "URLLIB_PARSE_BACKPORT_WARN"

_FALSE_VALUES = ("", "0", "false", "no", "off")


class _DefaultSeparator(str):
    """The type of :data:`DEFAULT_SEPARATOR`: ``'&'`` that knows it was not chosen."""

    __slots__ = ()

    def __repr__(self):
        return "'&'"

    def __reduce__(self):
        return (str, ("&",))


#: The default of every ``separator`` parameter; ``== '&'``, tested with ``is``.
DEFAULT_SEPARATOR = _DefaultSeparator("&")


class QuerySeparatorWarning(RuntimeWarning):
    """A query containing ``';'`` was split on the default ``'&'`` only (CVE-2021-23336).

    Emitted only when ``URLLIB_PARSE_BACKPORT_WARN`` is set, so operators can
    find clients that relied on ``';'`` being a separator before bpo-42967.
    Filter it like any warning class.
    """


_WARNING_MESSAGE = (
    "A query string containing ';' was parsed with the default separator '&': "
    "';' is no longer a field separator (CVE-2021-23336, bpo-42967). Pass separator=';' "
    "or set PYTHON_URLLIB_QS_SEPARATOR if a client relies on it."
)

_BAD_VALUE_MESSAGE = (
    SEPARATOR_VARIABLE + " (from environment variable) must contain 1 character, "
    'or "legacy". See https://access.redhat.com/articles/5860431 for more details.'
)

#: ``apply_default(qs) -> (qs, separator)`` when the environment changes the
#: default, else None: the parsers then keep DEFAULT_SEPARATOR, at no cost.
apply_default = None

#: What :func:`read_environment` last returned.
setting = None


def _use_separator(separator):
    def apply_separator(qs):
        return qs, separator
    return apply_separator


def _legacy(qs):
    """Split on ``'&'`` and ``';'``, like 2.7.18: turn every ``';'`` into ``'&'``.

    Same fields, same ``max_num_fields`` count (``1 + count('&') + count(';')``)
    and same strict-parsing errors as splitting on both.
    """
    if isinstance(qs, text_type):
        return qs.replace(u";", u"&"), "&"
    # 3.13 reads any bytes-like query as raw bytes (gh-74668); 2.7 has no such step.
    if not PY2 and qs and not isinstance(qs, bytes):
        try:
            qs = bytes(memoryview(qs))
        except TypeError:  # not bytes-like: the parser raises its own error
            return qs, "&"
    try:
        return qs.replace(b";", b"&"), "&"
    except (AttributeError, TypeError):
        return qs, "&"


def _raise_bad_value(qs):
    raise ValueError(_BAD_VALUE_MESSAGE)


def problem():
    """Why every parse with the default separator will raise under the current
    setting, as one line of text; None when the setting is usable."""
    if apply_default is _raise_bad_value:
        return "%s=%r is not valid: %s" % (SEPARATOR_VARIABLE, setting, _BAD_VALUE_MESSAGE)
    return None


def warn_on_semicolon(qs, stacklevel=3):
    """Warn if *qs* contains ``';'``; by default naming the caller of the parser
    (1: here, 2: parse_qsl or parse_qs, 3: its caller)."""
    try:
        found = (u";" if isinstance(qs, text_type) else b";") in qs
    except TypeError:
        found = False
    if found:
        warnings.warn(_WARNING_MESSAGE, QuerySeparatorWarning, stacklevel=stacklevel)
    return qs, "&"  # resolved: parse_qsl called by parse_qs must not warn again


def read_environment(environ=None):
    """(Re)read ``PYTHON_URLLIB_QS_SEPARATOR`` and ``URLLIB_PARSE_BACKPORT_WARN``.

    Done once at import; call again after changing the environment. *environ*
    defaults to ``os.environ``. Returns the setting now in force: ``None``
    (upstream: ``'&'``), the variable's value, or ``'warn'``. A bad
    separator value does not raise here: like Red Hat's interpreters, the
    parsers raise ``ValueError`` naming the variable when the default is used.
    """
    global apply_default, setting
    if environ is None:
        environ = os.environ
    value = environ.get(SEPARATOR_VARIABLE)
    if value is not None:
        if value == "legacy":
            apply_default = _legacy
        elif len(value) == 1:
            apply_default = _use_separator(value)
        else:
            apply_default = _raise_bad_value
    elif environ.get(WARN_VARIABLE, "").strip().lower() not in _FALSE_VALUES:
        apply_default, value = warn_on_semicolon, "warn"
    else:
        apply_default = None
    setting = value
    return value


read_environment()
