"""The fix of CVE-2025-8194 (gh-130577, upstream commit cdae923f): a member's negative
offset refused.

``TarInfo._block(count)`` rounds a byte count up to whole blocks; the reader
adds its result to the offset of the next header (``_proc_builtin``,
``_proc_gnulong``, ``_proc_pax``, ``_proc_sparse``). Before gh-130577 a size
field that reads as negative (an octal ``-2000``, or GNU's base-256 with a
``0xff`` lead byte) gives a negative count: the next header is read from
before the current one, the same members come back for ever and
``getmembers()``, ``extractall()`` and iteration never end.

gh-130577 (3.14, 3.13.6 and the security branches after them) makes
``_block`` raise ``InvalidHeaderError("invalid offset")`` for a negative
count. ``TarFile.next()`` already handles that error: at the first member
``tarfile.open`` raises ``ReadError``, later the archive ends there, and
with ``ignore_zeros=True`` the block is skipped. The replacement is the PSF
advisory's run-time patch: that check, then the original, so every count of
an honest archive gets the stock result. 2.7's ``tarfile`` has the same
``_block`` and ``InvalidHeaderError`` (no upstream fix there).
"""

from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "MESSAGE"]

#: gh-130577's message.
MESSAGE = "invalid offset"


def _stock_block(module):
    """``TarInfo``'s own ``_block``, or None where the module has no such method."""
    return getattr(module, "TarInfo", type).__dict__.get("_block")


def needs_fix(module):
    """Whether ``tarfile`` (*module*) rounds a negative count instead of refusing it
    (gh-130577): ``_block(-1024)`` of a throw-away ``TarInfo`` returns ``-1024``
    before the fix and raises ``InvalidHeaderError`` after it."""
    block = _stock_block(module)
    if block is None:
        return False
    try:
        block(module.TarInfo(), -1024)
    except module.InvalidHeaderError:
        return False
    return True


def replacements(module):
    """``{"TarInfo._block": new}``: gh-130577's check, then the original."""
    original = _stock_block(module)
    if original is None:
        return {}
    error = module.InvalidHeaderError

    def _block(self, count):
        # gh-130577: only non-negative offsets are allowed.
        if count < 0:
            raise error(MESSAGE)
        return original(self, count)

    return {"TarInfo._block": named_as(_block, original, module=True)}
