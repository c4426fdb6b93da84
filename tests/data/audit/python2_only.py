# Audit fixture: Python 2 only (print statement, old except syntax).
# Found: the [&;] pattern and the ';' split of the '&' pieces.
import re

_FIELDS = re.compile(r'[&;]')  # AUDIT: text


def parse_query(qs):
    try:
        return [field.split('=', 1) for field in _FIELDS.split(qs) if field]  # AUDIT: ast
    except ValueError, exc:
        print "bad query:", exc
        return []


def parse_body(body):
    fields = []
    for chunk in body.split('&'):
        for field in chunk.split(';'):  # AUDIT: found
            fields.append(field)
    return fields


def content_type(header):
    return header.split(';')[0]
