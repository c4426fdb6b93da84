"""The fix of CVE-2019-20907 (bpo-39017, commit 5a8d121a, PR gh-21454): a pax record
of length 0 refused.

``TarInfo._proc_pax`` reads an extended header's records (``"%d %s=%s\\n"``,
the length counting the whole record) by adding each record's length to
its position. Before bpo-39017 a record whose length reads ``0`` leaves
the position where it is: the loop reads that record for ever, and opening
the archive never ends. bpo-39017 (3.6.12, 3.7.9, 3.8.5, 3.9.0; every 3.x
of the matrix has it, 2.7 never got it) raises
``InvalidHeaderError("invalid header")`` there, which ``TarFile.next()``
turns into ``ReadError`` at the first member and the archive's end later.

A loop cannot be fixed around the original: where ``_proc_pax``'s code is
2.7.18's stock body (:class:`_Stock27`, compared by ``_copies.same_code``),
the replacement is that body with upstream's two lines written in
(:class:`_Copies27`), running in the stock module's globals. Where the
stock reader has the fix (3.x), a forced patch binds a function that calls
it; a body without the fix that is not 2.7.18's (a distributor's edit) is
left alone: nothing is bound.
"""

import io

from _cpython_security._copies import checked_copy
from _cpython_security._engine import named_as

__all__ = ["needs_fix", "replacements", "MESSAGE"]

#: bpo-39017's message.
MESSAGE = "invalid header"

#: A pax header of one record whose length is 0 and whose keyword is no UTF-8:
#: the stock 2.7 loop fails decoding it on its first turn (no loop), the fixed
#: one refuses the length before that.
_PROBE = b"0 \xff=\n"


class _Probe(object):
    """What ``_proc_pax`` reads of its ``tarfile`` argument, around a buffer."""

    encoding, errors = "utf-8", "surrogateescape"

    def __init__(self, buffer):
        self.fileobj = io.BytesIO(buffer)
        self.pax_headers = {}


def needs_fix(module):
    """Whether ``tarfile``'s (*module*) ``_proc_pax`` reads a record of length 0
    (bpo-39017): the fixed one raises ``InvalidHeaderError`` on :data:`_PROBE`,
    the stock 2.7 one fails decoding its keyword (any other outcome counts as
    unfixed). Nothing loops: the record's keyword stops the stock loop."""
    info = module.TarInfo("probe")
    info.type, info.size = module.XHDTYPE, len(_PROBE)
    try:
        vars(module.TarInfo)["_proc_pax"](info, _Probe(_PROBE))
    except module.InvalidHeaderError:
        return False
    except Exception:  # noqa: B902 - the stock reader's error on the probe
        return True
    return True


def replacements(module):
    """``{"TarInfo._proc_pax": new}``: where the stock body is 2.7.18's, that body with
    bpo-39017's check; where the stock reader has the fix (3.x, under ``force``), a
    function that calls it, so that a forced patch binds the fixed behaviour as every
    fix does; else (a body this package does not know, without the fix) ``{}``."""
    original = vars(module.TarInfo)["_proc_pax"]
    copy = checked_copy(original, "_proc_pax", [(_Stock27, _Copies27)],
                        {"InvalidHeaderError": module.InvalidHeaderError})
    if copy is None:
        if needs_fix(module):
            return {}

        def copy(self, tarfile):
            return original(self, tarfile)
    return {"TarInfo._proc_pax": named_as(copy, original, module=True)}


# 2.7.18's ``TarInfo._proc_pax`` (the twin; its docstring is ``_copies.DOC``) and its
# copy with bpo-39017's check.
# flake8: the stock module's names are undefined here (F821), by design.
class _Stock27(object):
    def _proc_pax(self, tarfile):
        """stock docstring"""
        buf = tarfile.fileobj.read(self._block(self.size))
        if self.type == XGLTYPE:  # noqa: F821
            pax_headers = tarfile.pax_headers
        else:
            pax_headers = tarfile.pax_headers.copy()
        regex = re.compile(r"(\d+) ([^=]+)=", re.U)  # noqa: F821
        pos = 0
        while True:
            match = regex.match(buf, pos)
            if not match:
                break
            length, keyword = match.groups()
            length = int(length)
            value = buf[match.end(2) + 1:match.start(1) + length - 1]
            keyword = keyword.decode("utf8")
            value = value.decode("utf8")
            pax_headers[keyword] = value
            pos += length
        try:
            next = self.fromtarfile(tarfile)
        except HeaderError:  # noqa: F821
            raise SubsequentHeaderError("missing or bad subsequent header")  # noqa: F821
        if self.type in (XHDTYPE, SOLARIS_XHDTYPE):  # noqa: F821
            next._apply_pax_info(pax_headers, tarfile.encoding, tarfile.errors)
            next.offset = self.offset
            if "size" in pax_headers:
                offset = next.offset_data
                if next.isreg() or next.type not in SUPPORTED_TYPES:  # noqa: F821
                    offset += next._block(next.size)
                tarfile.offset = offset
        return next


class _Copies27(object):
    def _proc_pax(self, tarfile):
        """stock docstring"""
        buf = tarfile.fileobj.read(self._block(self.size))
        if self.type == XGLTYPE:  # noqa: F821
            pax_headers = tarfile.pax_headers
        else:
            pax_headers = tarfile.pax_headers.copy()
        regex = re.compile(r"(\d+) ([^=]+)=", re.U)  # noqa: F821
        pos = 0
        while True:
            match = regex.match(buf, pos)
            if not match:
                break
            length, keyword = match.groups()
            length = int(length)
            if length == 0:  # bpo-39017
                raise InvalidHeaderError("invalid header")  # noqa: F821
            value = buf[match.end(2) + 1:match.start(1) + length - 1]
            keyword = keyword.decode("utf8")
            value = value.decode("utf8")
            pax_headers[keyword] = value
            pos += length
        try:
            next = self.fromtarfile(tarfile)
        except HeaderError:  # noqa: F821
            raise SubsequentHeaderError("missing or bad subsequent header")  # noqa: F821
        if self.type in (XHDTYPE, SOLARIS_XHDTYPE):  # noqa: F821
            next._apply_pax_info(pax_headers, tarfile.encoding, tarfile.errors)
            next.offset = self.offset
            if "size" in pax_headers:
                offset = next.offset_data
                if next.isreg() or next.type not in SUPPORTED_TYPES:  # noqa: F821
                    offset += next._block(next.size)
                tarfile.offset = offset
        return next
