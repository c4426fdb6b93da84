"""A generated corpus of honest HTML: fragments that close every construct they open.

Pieces from upstream's ``test_htmlparser`` (attribute quoting, entity and
character references, comments, conditional comments, declarations, PIs,
CDATA sections, script and style content, broken end tags, bare ``<`` and
``&``), joined at random (a fixed seed: the same corpus in every process and
in the reference child), and split at random into the chunks ``feed()``
gets. JSON-safe: the reference child reads it from a file.
"""

from __future__ import unicode_literals

import random

TEXT = ["hello", " ", "\n", "a > b", "a < b", "x&y", "& ", "&amp;", "&lt", "&#38;",
        "&#x26;", "&#bad;", "&bogus;", "&entity;&#32;", "caf\u00e9", "\u2603", "1 &lt; 2"]
NAMES = ["a", "p", "div", "IMG", "span", "foo:bar", "a$b", "br"]
VALUES = ['"v"', "'v'", "v", '"a<b>c"', "'&amp;&gt;'", '"&#97;&euro;"', '""', "x=y",
          "'\u30c6\u30b9\u30c8'", '"\n\t"']
MARKUP = ["<!-- comment -->", "<!---->", "<!-- a -- b -->", "<!--[if IE 8]>x<![endif]-->",
          "<!DOCTYPE html>", "<!doctype html PUBLIC 'foo'>", "<?xml version='1.0'?>",
          "<?pi?>", "<![CDATA[x<y]]>", "<!bogus comment>", "</$>", "</>",
          "<script>if (a<b && c>d) x = '</p>';</script>",
          "<style>a::before { content: '<i>'; }</style>", "</p class='x'>", "</div >",
          "<br/>", "<img src=x />", "<a\nhref='y'\n>", "<p>&nbsp;&copy 2024</p>"]


def _tag(rng):
    name = rng.choice(NAMES)
    attrs = "".join(" %s%s" % (rng.choice(["x", "href", "data-a", "b"]),
                               rng.choice(["", "=" + rng.choice(VALUES)]))
                    for _ in range(rng.randrange(3)))
    end = rng.choice([">", " >", "/>", " />"])
    return "<%s%s%s" % (name, attrs, end) + rng.choice(["", "</%s>" % name])


def fragment(rng, size=8):
    """An honest fragment of up to *size* pieces."""
    pieces = []
    for _ in range(rng.randrange(1, size + 1)):
        kind = rng.randrange(3)
        pieces.append(rng.choice(TEXT) if kind == 0 else
                      _tag(rng) if kind == 1 else rng.choice(MARKUP))
    return "".join(pieces)


def chunks(rng, text):
    """*text* split at random: one character at a time, a few pieces, or whole."""
    how = rng.randrange(3)
    if how == 0:
        return list(text)
    if how == 1 or len(text) < 2:
        return [text]
    cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randrange(1, 6))))
    return [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]


def corpus(count=300, seed=135462):
    """``[[chunk, ...], ...]``: *count* fragments, each in its chunks."""
    rng = random.Random(seed)
    return [chunks(rng, fragment(rng)) for _ in range(count)]
