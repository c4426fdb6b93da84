"""The cache-poisoning query of CVE-2021-23336, and what an app sees for it.

The one definition the tests and the scenarios share: a cache keyed on ``q``
sees ``common_term``; a parser that splits on ``';'`` also sees
``malicious_term``.
"""

ATTACK = "q=common_term&utm_content=s;q=malicious_term"

#: parse_qs(ATTACK) of a fixed parser, and of one that splits on ';'.
SAFE = {"q": ["common_term"], "utm_content": ["s;q=malicious_term"]}
SMUGGLED = {"q": ["common_term", "malicious_term"], "utm_content": ["s"]}
