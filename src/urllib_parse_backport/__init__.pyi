# Stubs for the public names of urllib_parse_backport (CVE-2021-23336, bpo-42967).
import sys
from typing import Any, AnyStr, Dict, Iterable, List, Mapping, Optional, Tuple, Union

if sys.version_info >= (3,):
    from urllib.parse import ParseResult, ParseResultBytes, SplitResult, SplitResultBytes

__version__: str
__all__: List[str]

if sys.version_info >= (3,):
    def parse_qsl(
        qs: Optional[AnyStr],
        keep_blank_values: bool = ...,
        strict_parsing: bool = ...,
        encoding: str = ...,
        errors: str = ...,
        max_num_fields: Optional[int] = ...,
        separator: Union[str, bytes] = ...,
    ) -> List[Tuple[AnyStr, AnyStr]]: ...
    def parse_qs(
        qs: Optional[AnyStr],
        keep_blank_values: bool = ...,
        strict_parsing: bool = ...,
        encoding: str = ...,
        errors: str = ...,
        max_num_fields: Optional[int] = ...,
        separator: Union[str, bytes] = ...,
    ) -> Dict[AnyStr, List[AnyStr]]: ...
else:
    def parse_qsl(
        qs: AnyStr,
        keep_blank_values: bool = ...,
        strict_parsing: bool = ...,
        max_num_fields: Optional[int] = ...,
        separator: Union[str, bytes] = ...,
    ) -> List[Tuple[AnyStr, AnyStr]]: ...
    def parse_qs(
        qs: AnyStr,
        keep_blank_values: bool = ...,
        strict_parsing: bool = ...,
        max_num_fields: Optional[int] = ...,
        separator: Union[str, bytes] = ...,
    ) -> Dict[AnyStr, List[AnyStr]]: ...

if sys.version_info >= (3,):
    # Same overloads as typeshed's urllib.parse.urlsplit/urlparse.
    from typing import overload
    @overload
    def urlsplit(url: str, scheme: str = ..., allow_fragments: bool = ...) -> SplitResult: ...
    @overload
    def urlsplit(url: Optional[bytes], scheme: Optional[bytes] = ...,
                 allow_fragments: bool = ...) -> SplitResultBytes: ...
    @overload
    def urlparse(url: str, scheme: str = ..., allow_fragments: bool = ...) -> ParseResult: ...
    @overload
    def urlparse(url: Optional[bytes], scheme: Optional[bytes] = ...,
                 allow_fragments: bool = ...) -> ParseResultBytes: ...
else:
    def urlsplit(url: AnyStr, scheme: AnyStr = ..., allow_fragments: bool = ...) -> Any: ...
    def urlparse(url: AnyStr, scheme: AnyStr = ..., allow_fragments: bool = ...) -> Any: ...

class PatchReport:
    forced: bool
    changed: List[str]
    skipped: List[Tuple[str, str]]
    fixes: Dict[str, str]
    def __init__(self, forced: bool = ...) -> None: ...
    def __bool__(self) -> bool: ...
    def as_dict(self) -> Dict[str, object]: ...

class QuerySeparatorWarning(RuntimeWarning): ...

def patch(force: bool = ..., frameworks: bool = ...,
          leave_out: Union[str, Iterable[str]] = ...) -> PatchReport: ...
def unpatch() -> PatchReport: ...
def is_patched() -> bool: ...
def status() -> Dict[str, Any]: ...
def read_environment(environ: Optional[Mapping[str, str]] = ...,
                     config_file: Optional[str] = ...) -> Optional[str]: ...
