"""Audit fixture: code that "normalises" ';' to '&' before splitting.

Found: each replacement whose result is split on '&' or parsed as a query.
"""

import re

try:
    from urllib.parse import parse_qs
except ImportError:  # Python 2
    from urlparse import parse_qs


def normalised_fields(qs):
    qs = qs.replace(';', '&')  # AUDIT: found
    return [field for field in qs.split('&') if field]


def normalised_chain(qs):
    return qs.replace(b';', b'&').split(b'&')  # AUDIT: found


def normalised_then_parsed(environ):
    return parse_qs(environ['QUERY_STRING'].replace(';', '&'))  # AUDIT: found


def normalised_by_regex(qs):
    return re.sub(';', '&', qs).split('&')  # AUDIT: found


def escaped_not_normalised(qs):
    return qs.replace(';', '%3B').split('&')


def normalised_the_other_way(qs):
    return qs.replace('&', ';').split(';')  # AUDIT: found


def normalised_but_split_on_something_else(qs):
    return qs.replace(';', '&').split('|')
