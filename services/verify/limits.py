"""The LLM verifier's bound per tenant: each verification through the endpoint costs money and time, so one key
cannot trigger them without end (DESIGN §11). At most `per_minute` calls in any sliding minute and `concurrent` at
once, per tenant; a call past either is refused as RateLimited (429) naming the limit, before the endpoint is asked.

The bound is held by the verifier the composition root builds once (credo/bootstrap.py), so every Store handle of
the process, and so every surface (REST, MCP, the CLI, extraction verifying its candidates), counts against the same
one; it is per server process (with CREDO_WORKERS=N a tenant may make N times as many calls). A refused call is not
counted; a call the endpoint failed is (it was made)."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from credo.schema.errors import RateLimited

WINDOW_S = 60.0


class TenantBound:
    """Calls a minute and calls at once, counted per tenant (thread-safe; the clock is monotonic seconds)."""

    def __init__(self, *, per_minute: int, concurrent: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.concurrent = concurrent
        self._clock = clock
        self._lock = threading.Lock()
        self._started: dict[str, deque[float]] = {}
        self._running: dict[str, int] = {}

    @contextmanager
    def slot(self, tenant: str) -> Iterator[None]:
        """Hold one call of `tenant` for the block; RateLimited (nothing counted) when a bound is reached."""
        with self._lock:
            now = self._clock()
            started = self._started.setdefault(tenant, deque())
            while started and now - started[0] >= WINDOW_S:
                started.popleft()
            if self._running.get(tenant, 0) >= self.concurrent:
                raise RateLimited("verifier_concurrency", f"at most {self.concurrent} verifications at once per "
                                  "tenant (CREDO_VERIFIER_CONCURRENCY); retry when one has finished", retry_after=1)
            if len(started) >= self.per_minute:
                wait = max(1, math.ceil(WINDOW_S - (now - started[0]) - 1e-9))
                raise RateLimited("verifier_per_minute", f"at most {self.per_minute} verifications a minute per "
                                  f"tenant (CREDO_VERIFIER_PER_MINUTE); retry in {wait} s", retry_after=wait)
            started.append(now)
            self._running[tenant] = self._running.get(tenant, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                self._running[tenant] -= 1
