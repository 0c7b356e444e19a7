# Type stubs for gazetteer_matcher.fuzzy (the library ships no types).
from collections.abc import Iterable

class Match:
    choice: str
    score: float

class ChoiceBatch:
    def __init__(self, choices: Iterable[str]) -> None: ...
    def extract(
        self, query: str, *, cutoff: float = ..., limit: int = ...
    ) -> list[Match]: ...

def ratio(a: str, b: str, *, algorithm: str = ...) -> float: ...
