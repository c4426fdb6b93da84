"""The fix: ``BytesGenerator`` refuses a header that would end the header line early
(gh-144125, CVE-2026-1299).

gh-121650 (CVE-2024-6923) checked the folded headers in ``Generator`` only;
``BytesGenerator`` (``message.as_bytes()``, ``smtplib.send_message``,
``mailbox``) overrides ``_write_headers`` and kept writing what
``policy.fold_binary()`` returns as it is. gh-144125 (GH-144126; 3.12.13,
3.11.15, 3.10.20, and 3.13/3.14 after January 2026) gives it the same check,
on bytes: the folded header must end with ``policy.linesep`` (encoded) and
hold no CR or LF that is not followed by a space or a tab, else
``HeaderWriteError`` with gh-121650's messages (the ``%r`` of bytes).
``policy.verify_generated_headers`` switches it as in ``_generator``. 2.7 has
no ``BytesGenerator``: nothing to fix there.
"""

import re

from email import errors

from ._generator import _Message, _Sink, verify
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "FOLDED_NEWLINE_BYTES"]

#: gh-144125's ``NEWLINE_WITHOUT_FWSP_BYTES``.
FOLDED_NEWLINE_BYTES = re.compile(br"\r\n[^ \t]|\r[^ \n\t]|\n[^ \t]")


def _probe(module):
    from email._policybase import Compat32

    class Probe(Compat32):
        def fold_binary(self, name, value):
            return (name + ": " + value + self.linesep).encode("ascii")

    generator = module.BytesGenerator(_Sink(), policy=Probe())
    generator._NL = "\n"
    module.BytesGenerator.__dict__["_write_headers"](generator, _Message([("H", "a\nb: c")]))


def needs_fix(module):
    """Whether ``module.BytesGenerator`` writes a header whose binary fold holds a bare
    newline: one throw-away header, written to a throw-away sink; the fixed method raises.
    False where there is no ``BytesGenerator`` (2.7)."""
    if "BytesGenerator" not in vars(module) or "_write_headers" not in vars(
            module.BytesGenerator):
        return False
    try:
        _probe(module)
    except errors.MessageError:
        return False
    return True


def _fixed(original):
    def _write_headers(self, msg):
        policy = self.policy
        if not getattr(policy, "verify_generated_headers", True):
            return original(self, msg)
        # This is almost the same as the string version, except for handling
        # strings with 8bit bytes.
        for h, v in msg.raw_items():
            folded = policy.fold_binary(h, v)
            verify(folded, policy.linesep.encode(), FOLDED_NEWLINE_BYTES.search)
            self._fp.write(folded)
        # A blank line always separates headers from body
        self.write(self._NL)
    return _write_headers


def replacements(module):
    """``BytesGenerator._write_headers``: gh-144125's checked loop around the stock method
    (nothing where there is no ``BytesGenerator``: 2.7)."""
    if "BytesGenerator" not in vars(module):
        return {}
    original = module.BytesGenerator.__dict__["_write_headers"]
    return {"BytesGenerator._write_headers": named_as(_fixed(original), original)}
