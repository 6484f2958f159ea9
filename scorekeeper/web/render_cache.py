"""What a worker builds once and keeps for the next phone: rendered fragments and PDFs.

One kind of store for both: values by key, the latest used last, within a budget of
bytes, so a server with a thousand tables keeps each table's latest version instead of
the last few dozen (docs/scaling.md).
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Value = TypeVar("Value", str, bytes)


class Kept(Generic[Value]):
    """Values built once by key and kept while the memory they take fits ``budget`` bytes
    (the least recently used go first)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.size = 0
        self._values: OrderedDict[Hashable, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, build: Callable[[], Value]) -> Value:
        """The value kept for ``key``, or ``build()``'s, kept for next time.

        Built outside the lock: two phones asking at once may both build it, and the
        first one kept stays.
        """
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
                return value
        value = build()
        with self._lock:
            if key not in self._values:
                self._values[key] = value
                self.size += sys.getsizeof(value)
            while self.size > self.budget and self._values:
                self.size -= sys.getsizeof(self._values.popitem(last=False)[1])
        return value

    def keys(self) -> list[Hashable]:
        """The keys kept, the least recently used first."""
        with self._lock:
            return list(self._values)
