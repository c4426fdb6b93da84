"""The rows of ``email_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE, FUTURE, PY2
from .._row import Fix

#: What every fix of ``email_backport`` shares: one switch for the package's fixes.
_EMAIL = dict(variable="EMAIL_BACKPORT_PATCH", options=FORCE)
_GENERATOR_COPY, _MESSAGE_COPY = [FUTURE + "email.generator"], [FUTURE + "email.message"]

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(package="email_backport", cve="CVE-2024-6923", issue="gh-121650",
        summary="email headers written with a newline that is no fold (header injection)",
        exposed="a header value with a newline adds headers or a body to mail this process writes",
        unfixed="writes each folded header unchecked",
        replaces=["email.generator.Generator._write_headers"],
        fix="email_backport._generator", module="email.generator", copies=_GENERATOR_COPY,
        **_EMAIL),
    Fix(package="email_backport", cve="CVE-2026-1299", issue="gh-144125",
        summary="BytesGenerator writes a header with a newline that is no fold (header injection)",
        exposed="a header value with a newline adds headers or a body to mail as_bytes() writes",
        unfixed="BytesGenerator writes each folded header unchecked",
        replaces=(["email.generator (2.7 has no BytesGenerator)"] if PY2
                  else ["email.generator.BytesGenerator._write_headers"]),
        fix="email_backport._bytes_generator", module="email.generator", copies=_GENERATOR_COPY,
        **_EMAIL),
    Fix(package="email_backport", cve="gh-136063", issue="gh-136063",
        summary="email header parameters parsed in time quadratic in ';' (CPU exhaustion)",
        exposed="a Content-Type of '\"' and many ';' costs this process quadratic CPU time",
        unfixed="quadratic in the ';' of a quoted parameter",
        replaces=["email.message._parseparam"],
        fix="email_backport._params", module="email.message", copies=_MESSAGE_COPY, **_EMAIL),
)
