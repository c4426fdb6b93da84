"""The field loop shared by every front end: split on one separator only.

This is the CVE-2021-23336 (bpo-42967) fix itself: fields are split on
*separator* alone, so ``;`` is ordinary data unless it is the separator.
"""


def split_fields(qs, separator, equals, keep_blank_values, strict_parsing,
                 max_num_fields, decode, value_without_equals):
    """Return ``[(name, value), ...]`` for a non-empty query of one string type.

    *decode* turns a raw name or value into its final form ('+' to space,
    percent-decoding), or is None when the query holds neither ``+`` nor
    ``%`` and so decodes to itself; *value_without_equals* is the value used for a field
    with no ``=`` when blank values are kept.
    """
    # Refuse oversized input before building the list (bpo-34866): a field
    # is counted for every separator, empty fields included.
    if max_num_fields is not None and max_num_fields < 1 + qs.count(separator):
        raise ValueError("Max number of fields exceeded")

    pairs = []
    append = pairs.append
    for field in qs.split(separator):
        if not field and not strict_parsing:
            continue
        name, has_equals, value = field.partition(equals)
        if not has_equals:
            if strict_parsing:
                raise ValueError("bad query field: %r" % (field,))
            value = value_without_equals
        if value or keep_blank_values:
            if decode is not None:
                name = decode(name)
                value = decode(value)
            append((name, value))
    return pairs


def split_fields_fast(qs, separator, equals, keep_blank_values, max_num_fields,
                      plus, space, percent, unquote):
    """``split_fields`` for the common case, same results: not strict, and
    neither *plus* nor *space* occurs in *separator*.

    Then '+' can become a space in the whole query at once, empty fields can
    be dropped in C (``filter``), and only pieces holding *percent* call
    *unquote* (None when the query holds no *percent* at all).
    """
    if max_num_fields is not None and max_num_fields < 1 + qs.count(separator):
        raise ValueError("Max number of fields exceeded")
    if plus in qs:
        qs = qs.replace(plus, space)
    fields = [field.partition(equals) for field in filter(None, qs.split(separator))]
    if unquote is None:
        if keep_blank_values:
            return [(name, value) for name, _, value in fields]
        return [(name, value) for name, _, value in fields if value]
    if keep_blank_values:
        return [(unquote(name) if percent in name else name,
                 unquote(value) if percent in value else value)
                for name, _, value in fields]
    return [(unquote(name) if percent in name else name,
             unquote(value) if percent in value else value)
            for name, _, value in fields if value]
