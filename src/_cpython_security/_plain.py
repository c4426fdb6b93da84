"""``is_plain(text)``: the header guards' fast test, written once.

True only if *text* is a string holding no C0 control character
(``\\x00``-``\\x1f``) and no DEL, the characters gh-143916 (``wsgiref``
headers), gh-144370 (the status line) and gh-143919 (cookies) refuse. False
means "not known plain": the guard then runs upstream's exact check, which
decides (3.x's ``str.isprintable`` is also False for some honest non-ASCII
characters, and those pass it). On 3.x it raises ``TypeError`` for anything
but a ``str``; on 2.7 for anything but a string; a caller that may be given
another object takes that as "not known plain" too.

Python 2/3 difference, in one place: 3.x asks ``str.isprintable``, one C call
with no pattern. 2.7 has no ``isprintable`` and a pattern call costs about
as much as the stock setter it guards, so it asks first a dict of the native
strings a pattern already found plain: at most 2,048 of them, each at most
256 characters (so at most 512 KiB of text kept, whatever the traffic), the
dict emptied when full. Only a plain ``str`` is ever kept, so an entry never
lets a control character through.
"""

import re
import sys

__all__ = ["is_plain"]

if sys.version_info[0] == 2:  # pragma: no cover - exercised by the py27 environment
    _match = re.compile(r"[^\x00-\x1F\x7F]*\Z").match

    class _PlainStrings(dict):
        """Native strings found plain (at most 2048, of at most 256 characters;
        emptied when full): only such a string's verdict is ever kept. Hashed by
        identity, so that a code object holding ``is_plain`` as a constant
        (``_copies.constant_loads``) stays hashable."""

        __hash__ = object.__hash__

        def __missing__(self, text):
            plain = _match(text) is not None  # raises on a non-string
            if plain and type(text) is str and len(text) <= 256:
                if len(self) >= 2048:
                    self.clear()
                self[text] = True
            return plain

    is_plain = _PlainStrings().__getitem__
else:
    is_plain = str.isprintable
