# Stubs for urllib_parse_backport.wsgi: WSGI middleware for CVE-2021-23336 (bpo-42967).
from typing import List, Optional, Union

from _typeshed.wsgi import WSGIApplication

__all__: List[str]

ORIGINAL_QUERY_STRING: str
ORIGINAL_BODY: str
DEFAULT_MAX_BODY_SIZE: int
DEFAULT_MAX_HEADER_SIZE: int
DEFAULT_MAX_PARAMETERS: int
DEFAULT_MAX_MEMBERS: int

def protect(
    app: WSGIApplication,
    separator: Optional[Union[str, bytes]] = ...,
    max_body_size: Optional[int] = ...,
    label_blind: bool = ...,
    max_header_size: int = ...,
    max_parameters: int = ...,
    max_members: int = ...,
) -> WSGIApplication: ...
