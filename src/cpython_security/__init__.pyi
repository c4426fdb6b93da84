# Stubs for the public names of cpython_security, the umbrella switch in code.
from typing import Dict, List, NamedTuple

__version__: str
__all__: List[str]

class Exposed(NamedTuple):
    fix: str
    package: str
    module: str
    issue: str
    def as_dict(self) -> Dict[str, str]: ...

def patch() -> None: ...
def exposed() -> List[Exposed]: ...
