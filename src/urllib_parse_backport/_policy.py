"""What the *default* separator means: upstream's ``'&'``, or the operator's choice.

``parse_qs``/``parse_qsl`` use :data:`DEFAULT_SEPARATOR` as the default of
their ``separator`` parameter. It is equal to ``'&'`` (so signatures read
``separator='&'``, as upstream's since bpo-42967), but it is a private object
compared by identity, so the parsers can tell "no separator given" from an
explicit ``separator='&'``. Only the former follows this module's settings:

* ``PYTHON_URLLIB_QS_SEPARATOR``, the variable of Red Hat's downstream fix
  (``&``, ``;``, any one character, or ``legacy`` = split on both), and when
  it is not set, the same key in the ``[parse_qs]`` section of Red Hat's
  configuration file ``/etc/python/urllib.cfg``;
* ``URLLIB_PARSE_BACKPORT_WARN``, opt-in :class:`QuerySeparatorWarning` when a
  query holding ``';'`` is parsed with the default ``'&'``.

Both are read once, at import, because an ``os.environ`` lookup on every call
would cost more than the parse of a short query; call :func:`read_environment`
after changing them. A host without the configuration file pays one failed
``open()`` for it, and ConfigParser is imported only when the file exists.
"""

import os
import warnings

from ._compat import PY2, import_configparser, text_type

__all__ = ["DEFAULT_SEPARATOR", "QuerySeparatorWarning", "read_environment", "apply_default",
           "problem"]

#: Red Hat's variable (Fedora/RHEL patch 00359 for CVE-2021-23336).
SEPARATOR_VARIABLE = "PYTHON_URLLIB_QS_SEPARATOR"
#: Red Hat's configuration file (patch 00359's ``_QS_SEPARATOR_CONFIG_FILENAME``),
#: read when the variable is not set; tests point it elsewhere.
CONFIG_FILE = "/etc/python/urllib.cfg"
CONFIG_SECTION = "parse_qs"
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

#: Red Hat's message; the source is "environment variable" or the file's path.
_BAD_VALUE_MESSAGE = (
    SEPARATOR_VARIABLE + " (from %s) must contain 1 character, "
    'or "legacy". See https://access.redhat.com/articles/5860431 for more details.'
)
_FROM_VARIABLE = "environment variable"

#: ``apply_default(qs) -> (qs, separator)`` when the environment changes the
#: default, else None: the parsers then keep DEFAULT_SEPARATOR, at no cost.
apply_default = None

#: What :func:`read_environment` last returned, and where it came from
#: (``"environment variable"``, the configuration file's path, or None).
setting = None
source = None

#: What problem() reports, set by read_environment().
_problem = None


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


def _bad_value(where):
    def raise_bad_value(qs):
        raise ValueError(_BAD_VALUE_MESSAGE % where)
    return raise_bad_value


def _config_error(error):
    """Raise (a copy of) ConfigParser's *error* whenever the default is used, as
    Red Hat's parsers do for a file without a readable ``[parse_qs]`` value."""
    def raise_config_error(qs):
        import copy
        raise copy.copy(error)  # a fresh object: no traceback piles up on it
    return raise_config_error


def _read_config_file(path):
    """``(value, error)`` from Red Hat's configuration file; ``(None, None)`` without one.

    As patch 00359: a file that cannot be opened counts as absent, the value is
    ``[parse_qs]`` ``PYTHON_URLLIB_QS_SEPARATOR`` read with ConfigParser, and
    ConfigParser's errors (no such section or option, a malformed file) reach
    the caller of the parser rather than the importer of the package.
    """
    try:
        handle = open(path)
    except (IOError, OSError):
        return None, None
    with handle:
        configparser = import_configparser()
        config = configparser.ConfigParser()
        try:
            read = getattr(config, "read_file", None) or config.readfp  # 2.7: readfp only
            read(handle)
            return config.get(CONFIG_SECTION, SEPARATOR_VARIABLE), None
        except configparser.Error as error:
            return None, error


def problem():
    """Why every parse with the default separator will raise under the current
    setting, as one line of text; None when the setting is usable."""
    return _problem


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


def read_environment(environ=None, config_file=None):
    """(Re)read ``PYTHON_URLLIB_QS_SEPARATOR``, Red Hat's configuration file and
    ``URLLIB_PARSE_BACKPORT_WARN``.

    Done once at import; call again after changing them. *environ* defaults
    to ``os.environ``. As on Red Hat's interpreters, the variable wins; when
    it is not set, ``PYTHON_URLLIB_QS_SEPARATOR`` in the ``[parse_qs]``
    section of ``/etc/python/urllib.cfg`` (or *config_file*) counts, if that
    file exists.
    Returns the setting now in force: ``None`` (upstream: ``'&'``), the
    separator value, or ``'warn'``. Nothing raises here: with a bad value the
    parsers raise ``ValueError`` naming its source when the default is used,
    and with a configuration file whose value cannot be read (returns
    ``None``), ConfigParser's error, as Red Hat's parsers do.
    """
    global apply_default, setting, source, _problem
    if environ is None:
        environ = os.environ
    value, where, error = environ.get(SEPARATOR_VARIABLE), _FROM_VARIABLE, None
    if value is None:
        path = CONFIG_FILE if config_file is None else config_file
        value, error = _read_config_file(path)
        where = path if value is not None or error is not None else None
    _problem = None
    if error is not None:
        apply_default = _config_error(error)
        _problem = "%s cannot be read, every parse with the default separator will raise: " \
            "%s: %s" % (where, type(error).__name__, error)
    elif value is not None:
        if value == "legacy":
            apply_default = _legacy
        elif len(value) == 1:
            apply_default = _use_separator(value)
        else:
            apply_default = _bad_value(where)
            _problem = "%s=%r is not valid: %s" % (SEPARATOR_VARIABLE, value,
                                                   _BAD_VALUE_MESSAGE % where)
    elif environ.get(WARN_VARIABLE, "").strip().lower() not in _FALSE_VALUES:
        apply_default, value = warn_on_semicolon, "warn"
    else:
        apply_default = None
    setting, source = value, where
    return value


read_environment()
