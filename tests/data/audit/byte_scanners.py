"""Audit fixture: parsers that scan one buffer for '&' or ';' instead of splitting it.

Found: python-multipart's way (the positions of both bound to one name, bytes
compared with b'&'[0] and b';'[0]), its variants with ord(), with the codes
38/0x26 and 59/0x3B or constants bound to them, a membership test, and
re.findall/finditer with both in one class. Not found: HTML entity scanners
that look for '&' and for the ';' that closes it apart, and comparisons of
numbers that are not bytes (two subjects, a long list of numbers).
"""

import re
from re import findall

AMPERSAND = b'&'[0]
SEMICOLON = b';'[0]
AMP_CODE = ord('&')
SEMI_CODE = ord(b';')
AMP, SEMI = 0x26, 0x3B
_FIELDS = re.compile(r'([^&;=]+)=([^&;]*)')
_ENTITY = re.compile(r'&([^&;\s]+);')


class QuerystringParser(object):
    def write(self, data, length):
        fields, i, start = [], 0, 0
        while i < length:
            ch = data[i]
            if ch == AMPERSAND or ch == SEMICOLON:  # AUDIT: found
                fields.append(data[start:i])
                start = i + 1
            i += 1
        return fields

    def find_field_end(self, data, i):
        sep_pos = data.find(b'&', i)
        if sep_pos == -1:
            sep_pos = data.find(b';', i)  # AUDIT: found
        return sep_pos


def by_code_point(text):
    return [i for i, c in enumerate(text)
            if ord(c) == AMP_CODE or ord(c) == SEMI_CODE]  # AUDIT: found


def by_membership(text):
    return [i for i, c in enumerate(text) if c in ('&', ';')]  # AUDIT: found


def not_a_separator(qs, i):
    while i < len(qs) and qs[i] != '&' and qs[i] != ';':  # AUDIT: found
        i += 1
    return i


def by_findall(qs):
    return findall(r'([^&;=]+)=([^&;]*)', qs)  # AUDIT: found


def by_finditer(qs):
    return dict(match.groups() for match in _FIELDS.finditer(qs))  # AUDIT: found


def html_entities(text):
    start = text.find('&')
    end = text.find(';', start)
    names = _ENTITY.findall(text)
    return text[start + 1:end], names


def html_tokens(text):
    tokens = []
    for c in text:
        if c == '&':
            tokens.append('entity')
        elif c == ';':
            tokens.append('end')
    return tokens


def by_integer_literals(data):
    ends = []
    for i, c in enumerate(bytearray(data)):
        if c == 38 or c == 59:  # AUDIT: found
            ends.append(i)
    return ends


def by_hex_membership(data):
    return [i for i, c in enumerate(bytearray(data)) if c in (0x26, 0x3B)]  # AUDIT: found


def by_integer_constants(data, i):
    while i < len(data) and data[i] != AMP and data[i] != SEMI:  # AUDIT: found
        i += 1
    return i


def not_bytes(minute, second, status):
    if minute == 59 or second == 38:
        return 'rollover'
    if status in (38, 59, 60, 61, 62):
        return 'retry'
    if status == 38:
        return 'first'
    elif status == 59:
        return 'last'
    return None
