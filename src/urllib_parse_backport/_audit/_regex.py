"""Which single characters a regular expression splits text on, read from its source.

Why: ``re.compile('[&;]').split(qs)`` (Django 1.11) splits a query string on
``';'`` as well as ``'&'`` (CVE-2021-23336, bpo-42967); the audit must see
that in the pattern without compiling or running anyone's code.
"""

import re

#: A character class larger than this matches text, not separators.
_MAX_CLASS = 32
_QUANTIFIER = re.compile(r"(?:[+*?]|\{\d*(?:,\d*)?\})\??$")
_SPACE = re.compile(r"^(?:\\s|[ ])[*+]?\??|(?:\\s|[ ])[*+]?\??$")


def separator_chars(pattern):
    """The characters *pattern* (text) matches as a one-character separator.

    Each top-level alternative counts when it is one character, an escaped
    punctuation character, a character class (not negated) or a group of
    those, optionally repeated or padded with ``\\s*``; anything longer
    (``'&amp;'``) is not a separator and gives nothing.
    """
    chars = set()
    for branch in _branches(pattern):
        chars.update(_branch_chars(branch))
    return chars


def field_class(pattern):
    """Whether *pattern* matches ``name=value`` fields delimited by a character class
    holding both ``'&'`` and ``';'`` (``([^&;=]+)=([^&;]*)``), the class negated or not.

    Why: ``re.findall`` with such a pattern splits a query on ``';'`` as surely
    as ``re.split('[&;]')``; an HTML entity pattern (``&([^&;\\s]+);``) has no ``=``.
    """
    if "=" not in pattern:
        return False
    index = pattern.find("[")
    while index != -1:
        end = pattern.find("]", index + 2)
        if end == -1:
            return False
        body = pattern[index + 1:end]
        if pattern[index - 1:index] != "\\" and "&" in body and ";" in body:
            return True
        index = pattern.find("[", end)
    return False


def _branches(pattern):
    """*pattern* split on its top-level ``|`` (outside groups and classes)."""
    branches, depth, begin, index, class_start = [], 0, 0, 0, None
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if class_start is not None:  # inside [...]: a ']' first in the class is literal
            if char == "]" and index > class_start:
                class_start = None
        elif char == "[":
            class_start = index + 1
            if pattern[class_start:class_start + 1] == "^":
                class_start += 1
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            branches.append(pattern[begin:index])
            begin = index + 1
        index += 1
    branches.append(pattern[begin:])
    return branches


def _branch_chars(branch):
    previous = None
    while branch != previous:  # peel quantifiers and \s* padding, in any order
        previous = branch
        branch = _SPACE.sub("", _QUANTIFIER.sub("", branch))
    if branch.startswith("(") and branch.endswith(")"):
        inner = branch[1:-1]
        if inner.startswith("?:"):
            inner = inner[2:]
        elif inner.startswith("?"):
            return set()  # lookarounds, named groups, flags: not a separator
        return separator_chars(inner)
    if len(branch) == 1 and branch not in ".^$":
        return {branch}
    if len(branch) == 2 and branch[0] == "\\" and not branch[1].isalnum():
        return {branch[1]}
    if branch.startswith("[") and branch.endswith("]") and not branch.startswith("[^"):
        return _class_chars(branch[1:-1])
    return set()


def _class_chars(body):
    """The characters of a character class body (ASCII ranges expanded, escapes
    read); none for a class so large that it matches text rather than separators."""
    chars, index = [], 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            index += 1
            char = body[index]
            if char.isalnum():  # \s, \d, \w, \n: none is a separator we look for
                index += 1
                continue
        elif char == "-" and chars and index + 1 < len(body):
            low, high = ord(chars[-1]), ord(body[index + 1])
            chars.extend(chr(code) for code in range(low + 1, min(high, 127) + 1))
            index += 2
            continue
        chars.append(char)
        index += 1
    chars = set(chars)
    return chars if len(chars) <= _MAX_CLASS else set()  # [\x00-\x7f]: text, not a separator
