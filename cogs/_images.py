"""Board images for the Discord layer: rendered off the event loop, cached per game, move and viewer.

Only `rules.view(state, viewer)` ever reaches the renderer, so a public image can hold nothing private.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Mapping
from typing import Any

from cogs._session import Session
from storage import GameRow

log = logging.getLogger(__name__)


def _render(game: str, view: Any, viewer: str | None, names: Mapping[str, str], **extra: Any) -> bytes | None:
    """PNG bytes, or None if the renderer fails: the bot then posts text only (logged)."""
    from render import render_png

    try:
        return render_png(game, view, viewer=viewer, names=dict(names), **extra)
    except Exception:
        log.exception("rendering %s failed (viewer=%s); posting without an image", game, viewer)
        return None


class Images:
    """The images of the bot's games. One per bot."""

    def __init__(self, session: Session, *, cache_size: int = 64):
        self.session = session
        self._cache: collections.OrderedDict[tuple[int, int, str | None], bytes | None] = collections.OrderedDict()
        self._size = cache_size

    async def public(self, row: GameRow, version: int | None = None) -> bytes | None:
        """The public board after move `version` (default: now)."""
        version = row.version if version is None else version
        return await self._image(row, version, None)

    async def private(self, row: GameRow, player: str) -> bytes | None:
        """What `player` may see (their hand added). Ephemeral use only."""
        return await self._image(row, row.version, player)

    async def preview(self, row: GameRow, player: str, view: Any, highlight: Any) -> bytes | None:
        """A small picture of the player's own board after a tentative placement (`view` is theirs)."""
        return await asyncio.to_thread(
            _render, row.game, view, player, Session.names(row), highlight=highlight, focus=True
        )

    async def _image(self, row: GameRow, version: int, viewer: str | None) -> bytes | None:
        key = (row.id, version, viewer)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        state = await self.session.state_at(row, version)
        view = self.session.rules(row.game).view(state, viewer)  # never more than the viewer may see
        png = await asyncio.to_thread(_render, row.game, view, viewer, Session.names(row))
        self._cache[key] = png
        while len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return png
