"""The line a category's requests wait in for capacity: first come, first served.

Only the head of the line asks the backend for a slot; everybody else waits for
their turn. A request the service refused goes back to the front (the lane's
docstring, "429s"). Cancelled waiters are skipped when the head passes.
"""

from __future__ import annotations

import asyncio
import collections

__all__ = ["Line"]


class Line:
    """One head at a time, in FIFO order (or at the front, for a refused request)."""

    def __init__(self) -> None:
        self._queue: collections.deque[asyncio.Future[None]] = collections.deque()
        self._abandoned = 0
        self._head_taken = False

    def take_free_head(self) -> bool:
        """Become the head at once if nobody is (True), without waiting; then :meth:`pass_head`
        when done. Else (False) wait for it with :meth:`take_head`."""
        # Whenever the queue holds anybody, the head is taken (it empties the
        # queue before letting go), so this is the one test that keeps FIFO.
        if self._head_taken:
            return False
        self._head_taken = True
        return True

    async def take_head(self, first: bool) -> None:
        """Return once this caller is the head, after waiting for the one that holds it (only
        when :meth:`take_free_head` answered False); it must :meth:`pass_head` when done.

        ``first`` queues at the front of the line instead of the back.
        """
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if first:
            self._queue.appendleft(turn)
        else:
            self._queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                # Promoted, then cancelled before it could run: hand the head on.
                self.pass_head()
            else:
                self._forget_abandoned()
            raise

    def pass_head(self) -> None:
        """Hand the head to the next waiter still waiting, or leave it free."""
        while self._queue:
            turn = self._queue.popleft()
            if not turn.done():
                turn.set_result(None)
                return
            self._abandoned = max(0, self._abandoned - 1)
        self._head_taken = False

    def close(self, error: BaseException) -> None:
        """Raise ``error`` in every waiter."""
        while self._queue:
            turn = self._queue.popleft()
            if not turn.done():
                turn.set_exception(error)
        self._abandoned = 0

    def _forget_abandoned(self) -> None:
        # Cancelled waiters are skipped lazily when the head passes; compacting
        # now and then keeps mass cancellation behind a blocked head from piling up.
        self._abandoned += 1
        if self._abandoned > 64 and self._abandoned * 2 > len(self._queue):
            self._queue = collections.deque(turn for turn in self._queue if not turn.done())
            self._abandoned = 0
