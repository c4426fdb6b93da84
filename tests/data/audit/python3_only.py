"""Audit fixture: Python 3 only (keyword-only arguments, an f-string).

Found: the ';' split of the '&' pieces; the ';' -> '&' normaliser.
"""


def parse_query(qs, *, keep_blank_values=False):
    fields = []
    for chunk in qs.split('&'):
        for field in chunk.split(';'):  # AUDIT: found
            if field or keep_blank_values:
                fields.append(f"{field}")
    return fields


def normalised(qs, *, limit=None):
    return qs.replace(';', '&').split('&', limit or -1)  # AUDIT: found


def content_type(header, *, default="text/plain"):
    return header.split(';')[0] or f"{default}"
