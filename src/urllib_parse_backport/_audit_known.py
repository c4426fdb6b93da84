"""The parsers ``patch()`` already fixes at run time, by dotted name, for the audit report.

Why: a finding in one of these needs ``patch()`` (or ``patch(frameworks=True)``),
not a code change, and the report says so. The audit never imports the shim or
the adapters (nor the frameworks); a test keeps this table in step with
``_frameworks.ADAPTERS``.
"""

import os

STDLIB_SHIM = "the stdlib shim, patch()"
SHIM = "patch()"
ADAPTER = "patch(frameworks=True)"

#: module.function -> what fixes it at run time (CVE-2021-23336, bpo-42967).
FIXED_AT_RUN_TIME = {
    # The stdlib before bpo-42967: 2.7's urlparse, 3.x's urllib.parse.
    "urlparse.parse_qsl": STDLIB_SHIM,
    "urllib.parse.parse_qsl": STDLIB_SHIM,
    # python-future's copy of 3.3's urllib.parse.
    "future.backports.urllib.parse.parse_qsl": SHIM,
    # The framework adapters.
    "webob.compat.parse_qsl_text": ADAPTER,
    "cherrypy.lib.httputil._parse_qs": ADAPTER,
    "cherrypy._cpreqbody.process_urlencoded": ADAPTER,
    "twisted.web.http.parse_qs": ADAPTER,
    "bottle._parse_qsl": ADAPTER,
    "django.utils.http.limited_parse_qsl": ADAPTER,
}


def module_name(path):
    """The dotted name *path* is imported under, from the ``__init__.py`` files above it."""
    directory, filename = os.path.split(os.path.abspath(path))
    name = os.path.splitext(filename)[0]
    parts = [] if name == "__init__" else [name]
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.insert(0, package)
    return ".".join(parts)


def fixed_by(parser):
    """What fixes *parser* (``module.function``) at run time, or None."""
    return FIXED_AT_RUN_TIME.get(parser)
