"""A read-only dict for data parsed once and shared by every game (a title's map, tile memos)."""

from __future__ import annotations

from typing import Any


class FrozenDict(dict[Any, Any]):
    """A dict that refuses every change: read as fast as a dict, shared by copies (a deep copy
    of a game keeps it), skipped by checkpoints (it has no attributes to save)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("this data is shared by every game and never changes")

    __setitem__ = __delitem__ = __ior__ = _refuse  # type: ignore[assignment]
    clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: Any) -> FrozenDict:
        return self

    def __reduce__(self) -> Any:
        return (FrozenDict, (dict(self),))
