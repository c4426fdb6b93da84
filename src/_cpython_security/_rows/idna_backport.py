"""The rows of ``idna_backport``: read by the registry (``_registry``) and, at
start-up, on their own (``_rows.fixes_of``), without importing the package.
"""

from . import FORCE
from .._row import Fix

#: The package's fixes, in the order reports list them.
ROWS = (
    Fix(package="idna_backport", cve="CVE-2022-45061", issue="gh-98433",
        summary="IDNA decoding quadratic in a label of right-to-left characters "
                "(CPU exhaustion)",
        exposed="a long 'xn--' label in a host name costs this process seconds of CPU",
        unfixed="decodes labels of any length (2.7, 3.6: quadratic in right-to-left letters)",
        behaviour="the idna codec refuses a label longer than 1024 characters (UnicodeError), "
                  "as 3.12 does",
        replaces=["encodings.idna.ToUnicode", "encodings.idna.nameprep"],
        summary_of=lambda module, bound: __import__(
            "idna_backport._idna", None, None, ("summary",)).summary(module, bound),
        fix="idna_backport._idna", module="encodings.idna",
        variable="IDNA_BACKPORT_PATCH", options=FORCE),
)
