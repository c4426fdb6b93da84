"""Audit fixture: an in-house request helper that splits queries with [&;].

Found: every split with a pattern matching '&' and ';'. Importing this module
writes a file named by AUDIT_SENTINEL: the audit must never import it.
"""

import os
import re
import re as regex_module
from re import split as re_split

if os.environ.get("AUDIT_SENTINEL"):
    with open(os.environ["AUDIT_SENTINEL"], "w") as sentinel:
        sentinel.write("imported")

_QUERY_SEPARATORS = re.compile(r'[&;]')
_SEPARATOR_PATTERN = r'&|;'


class Request(object):
    FIELD_SPLIT = regex_module.compile('[;&]')

    def __init__(self, query_string):
        self.query_string = query_string

    def fields(self):
        return self.FIELD_SPLIT.split(self.query_string)  # AUDIT: found


def query_params(qs):
    return [field.split('=', 1) for field in _QUERY_SEPARATORS.split(qs) if field]  # AUDIT: found


def query_params_inline(qs):
    return re_split(r'\s*(?:&|;)\s*', qs)  # AUDIT: found


def query_params_local(environ):
    separators = re.compile(b'[&;,]')
    return separators.split(environ['QUERY_STRING'])  # AUDIT: found


def query_params_from_a_constant(qs):
    return re.split(_SEPARATOR_PATTERN, qs)  # AUDIT: found
