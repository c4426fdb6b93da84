"""The fix: no control characters in a ``data:`` URL's media type (CVE-2025-15282,
gh-143925).

``urllib.request.DataHandler.data_open`` (what ``urlopen("data:...")`` runs)
writes the URL's media type, the text between ``data:`` and the first
comma, into the response's headers (``"Content-type: %s\\n..."``, parsed by
``email``). Unfixed, a newline there adds headers of the URL's author:
``data:text/plain\\nContent-Length: 0,...`` or any ``X-...`` line, in the
response an application reads from ``info()``.

gh-143925 (PR gh-143926; 3.10-3.14 backports gh-144084, gh-144111, gh-144113
to gh-144115) raises ``ValueError("Control characters not allowed in data:
mediatype")`` where the media type holds a C0 control character or DEL
(``[\\x00-\\x1F\\x7F]``), after the two splits (a URL without ``:`` or ``,``
fails there first, as before) and before anything is decoded. The
replacement makes that check, in that order, then calls the stock
``data_open``: an honest URL gets the stock response.

2.7's ``urllib2`` has no ``data:`` handler (``urllib.URLopener.open_data``
is the legacy opener, which upstream's fix does not touch): nothing to fix
there, and the probe says so.
"""

import re

__all__ = ["needs_fix", "replacements", "MESSAGE"]

#: gh-143925's message.
MESSAGE = "Control characters not allowed in data: mediatype"

# gh-143925's class: the C0 control characters and DEL.
_search = re.compile("[\x00-\x1F\x7F]").search


class _Probe(object):
    """A request whose media type holds a newline and whose data is one base64
    character: the fixed handler refuses it before decoding; the stock one
    fails in ``base64`` (``binascii.Error``), before any header is parsed."""

    full_url = "data:\n;base64,A"


def needs_fix(module):
    """Whether the module's ``DataHandler.data_open`` lets a control character through
    its media type: tried on :class:`_Probe`. False where there is no
    ``DataHandler`` (2.7's ``urllib2``)."""
    handler = module.__dict__.get("DataHandler")
    if handler is None:
        return False
    try:
        handler.__dict__["data_open"](handler(), _Probe())
    except ValueError as error:  # binascii.Error is a ValueError too: the unfixed one
        return type(error).__module__ == "binascii"
    return True


def _data_open(original):
    def data_open(self, req):
        url = req.full_url
        if isinstance(url, str):  # anything else: the stock code's own error
            colon = url.find(":")
            if colon >= 0:
                comma = url.find(",", colon + 1)
                if comma >= 0 and _search(url, colon + 1, comma):
                    raise ValueError(MESSAGE)
        return original(self, req)
    data_open.__name__ = original.__name__
    data_open.__doc__ = original.__doc__
    if hasattr(original, "__qualname__"):
        data_open.__qualname__ = original.__qualname__
    return data_open


def replacements(module):
    """``DataHandler.data_open``: gh-143925's check, then the stock function (nothing
    where there is no ``DataHandler``)."""
    if "DataHandler" not in module.__dict__:
        return {}
    original = module.__dict__["DataHandler"].__dict__["data_open"]
    return {"DataHandler.data_open": _data_open(original)}
