"""FrozenMap: the read-only, hashable mapping that rule values use (``fan_table``,
``player_multipliers``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, Iterable, Iterator, Optional, TypeVar, Union

__all__ = ["FrozenMap"]

_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenMap(Mapping[_K, _V], Generic[_K, _V]):
    """A read-only, hashable mapping (used for ``fan_table`` and ``player_multipliers``)."""

    __slots__ = ("_d", "_h")
    _d: dict[_K, _V]
    _h: Optional[int]  # the hash, computed on first use

    def __init__(self, items: Union[Mapping[_K, _V], Iterable[tuple[_K, _V]]] = ()) -> None:
        object.__setattr__(self, "_d", dict(items))
        object.__setattr__(self, "_h", None)

    def __getitem__(self, key: _K) -> _V:
        return self._d[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        h = self._h
        if h is None:
            h = hash(frozenset(self._d.items()))
            object.__setattr__(self, "_h", h)
        return h

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._d == dict(other.items())
        return NotImplemented

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("FrozenMap is read-only")

    def __repr__(self) -> str:
        return repr(self._d)

    def __reduce__(self) -> tuple[type[FrozenMap[_K, _V]], tuple[dict[_K, _V]]]:
        return (FrozenMap, (self._d,))
