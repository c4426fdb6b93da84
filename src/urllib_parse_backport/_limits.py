"""The bounds ``protect()`` keeps on what a request makes it read, and the answers past them.

Why bounds as well as linear code: an attacker sizes the request, and a
server may accept a header of any length (cheroot sets none, waitress 256
KiB) and a body up to ``max_body_size``. Every step ``protect()`` takes is
linear in what it reads; these bounds make the constant a number an
operator can read: the headers it parses (``Content-Type``,
``Content-Encoding``, ``Content-Length``, ``Transfer-Encoding``), the
parameters of the ``Content-Type``, and the members of a compressed form it
decompresses to check. Honest requests are far inside each default. Past
one, the request is refused (the answer below), logged once at WARNING, and
the application is not called.
"""

import operator

__all__ = ["DEFAULT_MAX_HEADER_SIZE", "DEFAULT_MAX_PARAMETERS", "DEFAULT_MAX_MEMBERS", "Limits",
           "HEADER_TOO_LARGE", "TOO_MANY_PARAMETERS", "TOO_MANY_MEMBERS", "TOO_MANY_CHUNKS",
           "CODED_TOO_LARGE"]

#: The longest value of a header ``protect()`` parses (characters): gunicorn's
#: own limit for one header line is 8190 bytes.
DEFAULT_MAX_HEADER_SIZE = 8192
#: The most ``;`` in the ``Content-Type`` values of one request: a form or a
#: multipart body names one or two parameters (``charset``, ``boundary``).
DEFAULT_MAX_PARAMETERS = 32
#: The most gzip or zlib members in a compressed form body: an encoder writes
#: one; each costs an inflater to set up.
DEFAULT_MAX_MEMBERS = 16

HEADER_TOO_LARGE = (431, "Request Header Fields Too Large",
                    b"This request has a Content-Type, Content-Encoding, Content-Length or "
                    b"Transfer-Encoding longer than the server reads.\n")
TOO_MANY_PARAMETERS = (400, "Bad Request",
                       b"This request's Content-Type has more parameters than the server "
                       b"reads.\n")
TOO_MANY_MEMBERS = (415, "Unsupported Media Type",
                    b"This request's body could be read as a form and is compressed in more "
                    b"members than the server reads.\n")
#: A form whose chunked framing the server left in the stream (wsgiref), in
#: more than 1024 chunks averaging under 1024 bytes: each costs ``protect()``
#: a few Python steps to de-chunk, and an attacker writes them one byte long
#: (honest clients write few, large ones: curl 16 kB).
TOO_MANY_CHUNKS = (400, "Bad Request",
                   b"This request's body could be read as a form and came in more, and "
                   b"smaller, chunks than the server reads.\n")
CODED_TOO_LARGE = (413, "Payload Too Large",
                   b"This request's body could be read as a form and decompresses to more "
                   b"than the server accepts for one.\n")


class Limits(object):
    """The bounds of one ``protect()``: *body* (``max_body_size``, or None),
    *header* (``max_header_size``), *parameters* (``max_parameters``),
    *members* (``max_members``), each checked here: an int >= 0 (a bad
    value raises at ``protect()``, never per request)."""

    __slots__ = ("body", "header", "parameters", "members")

    def __init__(self, body, header, parameters, members):
        self.body = None if body is None else _count("max_body_size", body)
        self.header = _count("max_header_size", header)
        self.parameters = _count("max_parameters", parameters)
        self.members = _count("max_members", members)

    def headers_problem(self, labels, others):
        """None, or ``(answer, reason)`` when a request's *labels* (its
        ``Content-Type`` values) or *others* (the other header values read, None
        where absent) pass a bound. Linear in their length."""
        for value in labels + others:
            if value is not None and len(value) > self.header:
                return HEADER_TOO_LARGE, "a header of %d characters, over max_header_size=%d" \
                    % (len(value), self.header)
        parameters = sum(value.count(";") for value in labels)
        if parameters > self.parameters:
            return TOO_MANY_PARAMETERS, "a Content-Type of %d parameters, over " \
                "max_parameters=%d" % (parameters, self.parameters)
        return None


def _count(name, value):
    value = operator.index(value)
    if value < 0:
        raise ValueError("protect(): %s must be >= 0%s, not %r"
                         % (name, " or None" if name == "max_body_size" else "", value))
    return value
