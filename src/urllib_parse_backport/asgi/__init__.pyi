# Stubs for urllib_parse_backport.asgi: ASGI middleware for CVE-2021-23336 (bpo-42967).
from typing import Any, Awaitable, Callable, List, MutableMapping, Optional, Union

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApplication = Callable[[Scope, Receive, Send], Awaitable[None]]

__all__: List[str]

ORIGINAL_QUERY_STRING: str
ORIGINAL_BODY: str
DEFAULT_MAX_BODY_SIZE: int
DEFAULT_MAX_HEADER_SIZE: int
DEFAULT_MAX_PARAMETERS: int
DEFAULT_MAX_MEMBERS: int

def protect(
    app: Any,
    separator: Optional[Union[str, bytes]] = ...,
    max_body_size: Optional[int] = ...,
    label_blind: bool = ...,
    max_header_size: int = ...,
    max_parameters: int = ...,
    max_members: int = ...,
) -> ASGIApplication: ...
