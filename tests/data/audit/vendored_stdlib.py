"""Audit fixture: a compatibility module with vendored copies of the old stdlib loop.

Found: both functions split the query on '&' and each piece on ';', as
urlparse.parse_qsl did before bpo-42967.
"""


def parse_qsl(qs, keep_blank_values=0, strict_parsing=0):
    pairs = [s2 for s1 in qs.split('&') for s2 in s1.split(';')]  # AUDIT: found
    r = []
    for name_value in pairs:
        if not name_value and not strict_parsing:
            continue
        nv = name_value.split('=', 1)
        if len(nv) == 2 and (nv[1] or keep_blank_values):
            r.append((nv[0], nv[1]))
    return r


class FormParser(object):
    def parse(self, body):
        fields = {}
        body = body.strip()
        for chunk in body.split(b'&'):
            for field in chunk.split(b';'):  # AUDIT: found
                name, _, value = field.partition(b'=')
                fields.setdefault(name, []).append(value)
        return fields


FIELD_SEPARATOR = '&'
LEGACY_SEPARATOR = ';'


def split_fields(qs):
    fields = []
    for piece in qs.split(FIELD_SEPARATOR):
        fields.extend(piece.split(LEGACY_SEPARATOR))  # AUDIT: found
    return fields
