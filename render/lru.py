"""A cache bounded by the bytes it holds, least recently used out first.

The renderer's static layers (render.basemap) differ a hundredfold in size: a small map's at 800 px is
about 1 MiB, Youngstown's at 3421 px about 20 MiB. Bounding such a cache by its number of entries
either wastes memory or thrashes (a server with several variants, previews at 1600 px beside results
at each map's own width); bounding it by bytes keeps what fits.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class CacheInfo:
    """What a :class:`ByteLRU` holds and has done since it was made (or last cleared)."""

    hits: int
    misses: int
    evictions: int
    entries: int
    bytes: int
    budget: int


class ByteLRU(Generic[K, V]):
    """``key -> value`` for values whose size in bytes ``size_of`` tells, holding at most ``budget``
    bytes. A lookup makes its entry the most recently used; adding an entry removes the least
    recently used ones until the total fits. A value larger than the whole budget is returned but
    not kept. Thread-safe (the building of a missing value runs outside the lock: two threads
    missing the same key at once both build it, and the second result is the one kept)."""

    def __init__(self, budget: int, size_of: Callable[[V], int]) -> None:
        self._budget = budget
        self._size_of = size_of
        self._entries: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._hits = self._misses = self._evictions = 0

    def get_or_build(self, key: K, build: Callable[[], V]) -> V:
        """The value cached for ``key``, else ``build()`` (kept if it fits)."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self._hits += 1
                return found[0]
            self._misses += 1
        value = build()
        self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        size = self._size_of(value)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self._budget:
                return
            self._entries[key] = (value, size)
            self._bytes += size
            while self._bytes > self._budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped
                self._evictions += 1

    def keys(self) -> list[K]:
        """The keys held, least recently used first."""
        with self._lock:
            return list(self._entries)

    def set_budget(self, budget: int) -> None:
        """Hold at most ``budget`` bytes from now on (dropping the least recently used to fit)."""
        with self._lock:
            self._budget = budget
            while self._bytes > self._budget and self._entries:
                _, (_, dropped) = self._entries.popitem(last=False)
                self._bytes -= dropped
                self._evictions += 1

    def clear(self) -> None:
        """Forget every entry and the counts."""
        with self._lock:
            self._entries.clear()
            self._bytes = 0
            self._hits = self._misses = self._evictions = 0

    def info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(
                hits=self._hits,
                misses=self._misses,
                evictions=self._evictions,
                entries=len(self._entries),
                bytes=self._bytes,
                budget=self._budget,
            )
