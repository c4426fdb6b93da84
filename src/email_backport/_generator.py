"""The fix: ``Generator`` refuses a header that would end the header line early
(CVE-2024-6923, gh-121650).

An unfixed ``email.generator.Generator`` writes what the policy's ``fold()``
returns (2.7: what ``Header.encode()`` returns, or the raw value when
``maxheaderlen=0`` or the value holds 8-bit bytes) as it is. A header value
holding a newline that is no fold (a decoded ``=?UTF-8?Q?=0A?=`` refolded by
``policy.default``, a custom ``fold()``, a value an app copied from its input)
then starts a header of the attacker's choosing (``Bcc:``) or, with an empty
line, the body. gh-121650 (GH-122233; 3.13.0, 3.12.5, 3.11.10, 3.10.15,
3.9.20, 3.8.20) makes ``_write_headers`` check each folded header before it
writes it, while ``policy.verify_generated_headers`` is true (the default):

- it must end with ``policy.linesep``, else ``HeaderWriteError("folded header
  does not end with %r: %r")``;
- without that ending, it must hold no CR or LF that is not followed by a space
  or a tab (``\\r\\n[^ \\t]|\\r[^ \\n\\t]|\\n[^ \\t]``), else
  ``HeaderWriteError("folded header contains newline: %r")``.

Upstream's commit also RFC 2047-encodes a newline in ``_refold_parse_tree``;
that half is not carried: where fixed CPython writes such a header encoded,
the patched generator refuses it. ``verify_generated_headers`` is read where
the policy has it (upstream's switch; a policy subclass may define it), and is
taken as true where it does not: this package cannot add the attribute to the
stdlib's ``Policy``.
"""

import re
import sys

from email import errors
from _cpython_security._engine import named_as

__all__ = ["HeaderWriteError", "needs_fix", "replacements", "verify", "FOLDED_NEWLINE"]

#: The newline that is no fold (gh-121650's ``NEWLINE_WITHOUT_FWSP``).
FOLDED_NEWLINE = re.compile(r"\r\n[^ \t]|\r[^ \n\t]|\n[^ \t]")


class _HeaderWriteError(errors.MessageError):
    """Error while writing headers."""


_HeaderWriteError.__name__ = "HeaderWriteError"
if hasattr(_HeaderWriteError, "__qualname__"):
    _HeaderWriteError.__qualname__ = "HeaderWriteError"
_HeaderWriteError.__module__ = "email_backport"

#: ``email.errors.HeaderWriteError`` where the stdlib has it (so an ``except`` of
#: either catches the refusal), else this package's, a ``MessageError`` too.
HeaderWriteError = getattr(errors, "HeaderWriteError", _HeaderWriteError)


def verify(folded, linesep, search=FOLDED_NEWLINE.search):
    """Raise :class:`HeaderWriteError` unless *folded* (one header, as the generator
    would write it) ends with *linesep* and holds no other newline but folds."""
    if not folded.endswith(linesep):
        raise HeaderWriteError("folded header does not end with %r: %r" % (linesep, folded))
    if search(folded[:len(folded) - len(linesep)]):  # removesuffix (3.9+)
        raise HeaderWriteError("folded header contains newline: %r" % (folded,))


class _Message(object):
    """A throw-away message of the given headers: what ``_write_headers`` reads."""

    def __init__(self, headers):
        self._headers = headers

    def raw_items(self):
        return iter(self._headers)

    items = raw_items


class _Sink(object):
    """A file that keeps each write, in order (2.7's ``print`` sets ``softspace`` on it)."""

    def __init__(self):
        self.writes = []
        self.write = self.writes.append


# Python 2/3 differences, in one place. 2.7's Generator has no policy: it prints
# each header itself (``Header.encode()``, or the raw value when maxheaderlen is
# 0 or the value is 8-bit), always with "\n". The 2.7 replacement runs the stock
# method for one header at a time into a sink, checks what it printed, then
# replays those writes: the same bytes, in the same write() calls. A Generator whose
# method folds through a policy (python-future's copy of 3.3's, on 2.7) gets 3.x's
# loop (:func:`_folding`), read from the method's code.
if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    def _probe(module):
        generator = module.Generator(_Sink(), maxheaderlen=0)
        module.Generator.__dict__["_write_headers"](generator, _Message([("H", "a\nb: c")]))

    def _fixed(original):
        if "policy" in original.__code__.co_names:
            return _folding(original)

        def _write_headers(self, msg):
            fp = self._fp
            for header in msg.items():
                self._fp = sink = _Sink()
                try:
                    original(self, _Message([header]))
                finally:
                    self._fp = fp
                writes = sink.writes[:-1]  # the stock method's empty line after the headers
                verify(_joined(writes), "\n")
                for text in writes:
                    fp.write(text)
            original(self, _Message([]))  # the empty line, as the stock method prints it
        return _write_headers

    def _joined(writes):
        """The header as printed; str and unicode pieces that do not join (8-bit
        bytes beside non-ASCII text) are checked as UTF-8 bytes."""
        try:
            return "".join(writes)
        except UnicodeError:
            return "".join(piece.encode("utf-8") if isinstance(piece, unicode)  # noqa: F821
                           else piece for piece in writes)
else:
    def _probe(module):
        from email._policybase import Compat32

        class Probe(Compat32):
            def fold(self, name, value):
                return name + ": " + value + self.linesep

        generator = module.Generator(_Sink(), policy=Probe())
        generator._NL = "\n"
        module.Generator.__dict__["_write_headers"](generator, _Message([("H", "a\nb: c")]))

    def _fixed(original):
        return _folding(original)


def _folding(original):
    """gh-121650's ``_write_headers``: each header as the policy folds it, checked."""
    def _write_headers(self, msg):
        policy = self.policy
        if not getattr(policy, "verify_generated_headers", True):
            return original(self, msg)
        for h, v in msg.raw_items():
            folded = policy.fold(h, v)
            verify(folded, policy.linesep)
            self.write(folded)
        # A blank line always separates headers from body
        self.write(self._NL)
    return _write_headers


def needs_fix(module):
    """Whether ``module.Generator`` writes a header whose fold holds a bare newline:
    one throw-away header, written to a throw-away sink; the fixed method raises."""
    if not hasattr(module, "Generator"):
        return False
    try:
        _probe(module)
    except errors.MessageError:
        return False
    return True


def replacements(module):
    """``Generator._write_headers``: gh-121650's checked loop around the stock method."""
    original = module.Generator.__dict__["_write_headers"]
    return {"Generator._write_headers": named_as(_fixed(original), original)}
