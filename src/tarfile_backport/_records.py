"""The fix of CVE-2024-6232 (gh-121285): pax headers read without backtracking
regular expressions.

``TarInfo._proc_pax`` reads an extended header's records (``"%d %s=%s\\n"``,
the length counting the whole record). Before gh-121285 it found them with
``(\\d+) ([^=]+)=`` matched at each record's start, looked for a
``hdrcharset`` record with ``\\d+ hdrcharset=([^\\n]+)\\n`` searched through the
whole header, and (3.x) read GNU sparse 0.0 maps with two more such searches.
A header the attacker sizes makes each of them scan the rest of it again and
again: ``"2 " * n`` (every interpreter of the matrix but 3.13.0) and a run of
digits (3.x) cost work quadratic in the header: 0.13 s at 16 KB on 3.6.15 and
3.12.1, 0.85 s on 2.7.18, and a 1 MB header minutes.

gh-121285 (3.13.0, 3.12.6, 3.11.10, 3.10.15, 3.9.20, 3.8.20; Debian's 3.11.2
carries it) reads each record by its length: the length is at most 20 digits
and a space, the record must hold a keyword, ``=`` and end in a newline
inside the header, and anything else, before a NUL, raises
``InvalidHeaderError("invalid header")``: ``tarfile.open`` raises
``ReadError`` at the first member, the archive ends at a later one. The
first ``hdrcharset`` record, and the sparse map, are read from the records.
The work is linear in the header; an honest header gives the stock result.

The replacement is the stock body with upstream's loop in place of the
stock one (:func:`_read_pax`, :func:`_sparse_00`, :func:`_records`), used
where ``_proc_pax`` is one of the stock bodies (``_copies.checked_copy``):
2.7.18's, whose loop decodes records as 2.7 does; 3.6-3.9's; 3.10-3.11's,
which raises ``SubsequentHeaderError(str(e)) from None``; 3.12's, whose loop
is written with ``:=``. Python 2 cannot compile those last two, so their
twins are compiled from :data:`_TWIN_3` once, at this fix's first
``replacements()`` on 3.x (0.7 ms on 3.6.15, 1.4 ms on 3.12.1); the copies
are compiled with this module. A body that is none of these and lacks the
fix is left alone (the engine reports it exposed).
"""

import re
import sys

from _cpython_security._copies import checked_copy
from _cpython_security._engine import named_as
from tarfile_backport._pax import _Probe  # the tarfile argument a probe reads

__all__ = ["needs_fix", "replacements", "MESSAGE"]

#: gh-121285's message (bpo-39017's too).
MESSAGE = "invalid header"

#: A record's length: at most 20 digits, then a space (upstream's
#: ``_header_length_prefix_re``).
_LENGTH = re.compile(b"([0-9]{1,20}) ")

#: One record of 5 bytes with no keyword: the fixed reader refuses it; the stock one
#: finds no record and fails reading the next header from an empty file.
_PROBE = b"5 =a\n"


def needs_fix(module):
    """Whether ``tarfile``'s (*module*) ``_proc_pax`` reads pax records without
    gh-121285's framing: the fixed reader raises ``InvalidHeaderError`` on
    :data:`_PROBE`; the stock one fails later, at the next header (any other
    outcome counts as unfixed too)."""
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
    """``{"TarInfo._proc_pax": new}``: where the stock body is one this module knows,
    that body with gh-121285's loop; where the stock reader has the fix (under
    ``force``), a function that calls it; else ``{}``."""
    original = vars(module.TarInfo)["_proc_pax"]
    copy = checked_copy(original, "_proc_pax", _families(),
                        {"_records": _records, "_read_pax": _read_pax,
                         "_sparse_00": _sparse_00})
    if copy is None:
        if needs_fix(module):
            return {}

        def copy(self, tarfile):
            return original(self, tarfile)
    return {"TarInfo._proc_pax": named_as(copy, original, module=True)}


# -- upstream's reading of the records ------------------------------------------------

def _records(buf, error):
    """``[(length, keyword, value)]`` of the pax header *buf*, as gh-121285 reads it:
    each record framed by its length, up to the end or a NUL; *error*
    (``InvalidHeaderError``) raised for any record that is not."""
    found, pos, end = [], 0, len(buf)
    while end > pos and buf[pos:pos + 1] != b"\0":
        match = _LENGTH.match(buf, pos)
        if not match:
            raise error(MESSAGE)
        length = int(match.group(1))
        # A record is at least 5 bytes ('5 x=\n'); a value may be empty.
        if length < 5 or pos + length > end:
            raise error(MESSAGE)
        last = match.start(1) + length - 1  # the record's newline
        keyword, equals, value = buf[match.end(1) + 1:last].partition(b"=")
        if not keyword or equals != b"=" or buf[last:last + 1] != b"\n":
            raise error(MESSAGE)
        found.append((length, keyword, value))
        pos += length
    return found


def _read_pax(info, tarfile, buf, pax_headers, error, name_fields):
    """gh-121285's loop of 3.x's ``_proc_pax``: *buf*'s records decoded into
    *pax_headers* (names in the encoding of the first ``hdrcharset`` record, as
    upstream reads it); returns the raw records, for :func:`_sparse_00`."""
    raw_headers = _records(buf, error)
    encoding = None
    for _, keyword, value in raw_headers:
        if keyword == b"hdrcharset" and encoding is None:
            encoding = tarfile.encoding if value == b"BINARY" else "utf-8"
    if encoding is None:
        encoding = "utf-8"
    for _, raw_keyword, raw_value in raw_headers:
        keyword = info._decode_pax_field(raw_keyword, "utf-8", "utf-8", tarfile.errors)
        if keyword in name_fields:
            value = info._decode_pax_field(raw_value, encoding, tarfile.encoding,
                                           tarfile.errors)
        else:
            value = info._decode_pax_field(raw_value, "utf-8", "utf-8", tarfile.errors)
        pax_headers[keyword] = value
    return raw_headers


def _sparse_00(next, raw_headers, error):
    """gh-121285's ``_proc_gnusparse_00``: the GNU sparse 0.0 map from the records."""
    offsets, numbytes = [], []
    for _, keyword, value in raw_headers:
        if keyword in (b"GNU.sparse.offset", b"GNU.sparse.numbytes"):
            try:
                number = int(value.decode())
            except ValueError:
                raise error(MESSAGE)
            (offsets if keyword == b"GNU.sparse.offset" else numbytes).append(number)
    next.sparse = list(zip(offsets, numbytes))


# -- the stock bodies and their copies ---------------------------------------------------

def _families():
    """``[(twins, copies)]`` for ``checked_copy``, this interpreter's."""
    if sys.version_info[0] == 2:
        from tarfile_backport._pax import _Stock27
        return [(_Stock27, _Copies27)]
    if not _TWINS:
        namespace = {}
        source = _TWIN_3.replace("class _Stock(", "class _Stock36(")
        exec(compile(source, "<tarfile_backport twin 3.6-3.9>", "exec"), namespace)
        raise_from = (
            "        except HeaderError as e:\n"
            "            raise SubsequentHeaderError(str(e)) from None\n")
        source = source.replace("_Stock36(", "_Stock310(").replace(
            "        except HeaderError:\n"
            "            raise SubsequentHeaderError(\"missing or bad subsequent header\")\n",
            raise_from)
        exec(compile(source, "<tarfile_backport twin 3.10-3.11>", "exec"), namespace)
        source = source.replace("_Stock310(", "_Stock312(").replace(
            "        while True:\n"
            "            match = regex.match(buf, pos)\n"
            "            if not match:\n"
            "                break\n", "        while match := regex.match(buf, pos):\n")
        if sys.version_info >= (3, 8):
            exec(compile(source, "<tarfile_backport twin 3.12>", "exec"), namespace)
        found = [(namespace["_Stock36"], _Copies36), (namespace["_Stock310"], _Copies310)]
        if "_Stock312" in namespace:
            found.append((namespace["_Stock312"], _Copies310))
        _TWINS[:] = found  # one step: an interrupt before it leaves none, never some
    return _TWINS


#: The 3.x twins, compiled once (see the module docstring).
_TWINS = []

# 3.6-3.9's ``TarInfo._proc_pax`` (3.10-3.11 and 3.12 differ where _families says),
# line for line (from 3.11 where a statement's lines break changes its bytecode), with
# ``re`` imported as ``tarfile`` imports it (3.11+ calls an imported module's function
# with other opcodes).
_TWIN_3 = '''
import re

class _Stock(object):
    def _proc_pax(self, tarfile):
        """stock docstring"""
        buf = tarfile.fileobj.read(self._block(self.size))
        if self.type == XGLTYPE:
            pax_headers = tarfile.pax_headers
        else:
            pax_headers = tarfile.pax_headers.copy()
        match = re.search(br"\\d+ hdrcharset=([^\\n]+)\\n", buf)
        if match is not None:
            pax_headers["hdrcharset"] = match.group(1).decode("utf-8")
        hdrcharset = pax_headers.get("hdrcharset")
        if hdrcharset == "BINARY":
            encoding = tarfile.encoding
        else:
            encoding = "utf-8"
        regex = re.compile(br"(\\d+) ([^=]+)=")
        pos = 0
        while True:
            match = regex.match(buf, pos)
            if not match:
                break
            length, keyword = match.groups()
            length = int(length)
            if length == 0:
                raise InvalidHeaderError("invalid header")
            value = buf[match.end(2) + 1:match.start(1) + length - 1]
            keyword = self._decode_pax_field(keyword, "utf-8", "utf-8",
                    tarfile.errors)
            if keyword in PAX_NAME_FIELDS:
                value = self._decode_pax_field(value, encoding, tarfile.encoding,
                        tarfile.errors)
            else:
                value = self._decode_pax_field(value, "utf-8", "utf-8",
                        tarfile.errors)
            pax_headers[keyword] = value
            pos += length
        try:
            next = self.fromtarfile(tarfile)
        except HeaderError:
            raise SubsequentHeaderError("missing or bad subsequent header")
        if "GNU.sparse.map" in pax_headers:
            self._proc_gnusparse_01(next, pax_headers)
        elif "GNU.sparse.size" in pax_headers:
            self._proc_gnusparse_00(next, pax_headers, buf)
        elif <SPARSE 1.0>:
            self._proc_gnusparse_10(next, pax_headers, tarfile)
        if self.type in (XHDTYPE, SOLARIS_XHDTYPE):
            next._apply_pax_info(pax_headers, tarfile.encoding, tarfile.errors)
            next.offset = self.offset
            if "size" in pax_headers:
                offset = next.offset_data
                if next.isreg() or next.type not in SUPPORTED_TYPES:
                    offset += next._block(next.size)
                tarfile.offset = offset
        return next
'''.replace("<SPARSE 1.0>", 'pax_headers.get("GNU.sparse.major") == "1" and '
            'pax_headers.get("GNU.sparse.minor") == "0"')


# The copies: each stock body with gh-121285's loop (and, on 2.7, bpo-39017's check,
# which the loop holds: a length under 5 is refused).
# flake8: the stock module's names are undefined here (F821), by design.
class _Copies27(object):
    def _proc_pax(self, tarfile):
        """stock docstring"""
        buf = tarfile.fileobj.read(self._block(self.size))
        if self.type == XGLTYPE:  # noqa: F821
            pax_headers = tarfile.pax_headers
        else:
            pax_headers = tarfile.pax_headers.copy()
        for length, keyword, value in _records(buf, InvalidHeaderError):  # noqa: F821
            keyword = keyword.decode("utf8")
            value = value.decode("utf8")
            pax_headers[keyword] = value
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


class _Copies36(object):
    def _proc_pax(self, tarfile):
        """stock docstring"""
        buf = tarfile.fileobj.read(self._block(self.size))
        if self.type == XGLTYPE:  # noqa: F821
            pax_headers = tarfile.pax_headers
        else:
            pax_headers = tarfile.pax_headers.copy()
        raw_headers = _read_pax(self, tarfile, buf, pax_headers,  # noqa: F821
                                InvalidHeaderError, PAX_NAME_FIELDS)  # noqa: F821
        try:
            next = self.fromtarfile(tarfile)
        except HeaderError:  # noqa: F821
            raise SubsequentHeaderError("missing or bad subsequent header")  # noqa: F821
        if "GNU.sparse.map" in pax_headers:
            self._proc_gnusparse_01(next, pax_headers)
        elif "GNU.sparse.size" in pax_headers:
            _sparse_00(next, raw_headers, InvalidHeaderError)  # noqa: F821
        elif pax_headers.get("GNU.sparse.major") == "1" and \
                pax_headers.get("GNU.sparse.minor") == "0":
            self._proc_gnusparse_10(next, pax_headers, tarfile)
        if self.type in (XHDTYPE, SOLARIS_XHDTYPE):  # noqa: F821
            next._apply_pax_info(pax_headers, tarfile.encoding, tarfile.errors)
            next.offset = self.offset
            if "size" in pax_headers:
                offset = next.offset_data
                if next.isreg() or next.type not in SUPPORTED_TYPES:  # noqa: F821
                    offset += next._block(next.size)
                tarfile.offset = offset
        return next


class _Copies310(object):
    def _proc_pax(self, tarfile):
        """stock docstring"""
        buf = tarfile.fileobj.read(self._block(self.size))
        if self.type == XGLTYPE:  # noqa: F821
            pax_headers = tarfile.pax_headers
        else:
            pax_headers = tarfile.pax_headers.copy()
        raw_headers = _read_pax(self, tarfile, buf, pax_headers,  # noqa: F821
                                InvalidHeaderError, PAX_NAME_FIELDS)  # noqa: F821
        try:
            next = self.fromtarfile(tarfile)
        except HeaderError as e:  # noqa: F821
            error = SubsequentHeaderError(str(e))  # noqa: F821
            error.__cause__ = None  # "raise ... from None", in Python 2's syntax
            raise error
        if "GNU.sparse.map" in pax_headers:
            self._proc_gnusparse_01(next, pax_headers)
        elif "GNU.sparse.size" in pax_headers:
            _sparse_00(next, raw_headers, InvalidHeaderError)  # noqa: F821
        elif pax_headers.get("GNU.sparse.major") == "1" and \
                pax_headers.get("GNU.sparse.minor") == "0":
            self._proc_gnusparse_10(next, pax_headers, tarfile)
        if self.type in (XHDTYPE, SOLARIS_XHDTYPE):  # noqa: F821
            next._apply_pax_info(pax_headers, tarfile.encoding, tarfile.errors)
            next.offset = self.offset
            if "size" in pax_headers:
                offset = next.offset_data
                if next.isreg() or next.type not in SUPPORTED_TYPES:  # noqa: F821
                    offset += next._block(next.size)
                tarfile.offset = offset
        return next
