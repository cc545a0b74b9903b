"""A quieter channel (`/game settings posts:compact`): one living board message per game, edited after every move.

A table's `posts` setting (its `table` JSON) is "every" (a post with the board per move, the default) or "compact".
In compact mode the herald (cogs/_herald.py) shows each move by editing the game's one board message: the board of
the position after that move (the edit replaces the attachment: Discord keeps only the attachments an edit lists),
the last few moves as text, who is to move, and the table buttons. An edit notifies nobody, so what must reach a
player is still posted, short and without an image:

- the turn line ("Your turn, @Ana.") with a link to the board and the Play button, whenever a move's post would
  ping somebody (a human's turn begins, out of their quiet hours); nothing for AI moves or a turn that goes on;
- the clock's and the table's notices (deadlines, the table's decision, stand-ins, undo), reminders and the final
  results, as in every mode (they ask somebody for something, or end the game).

Crash safety is the outbox's: the notice stays until the herald cleared it, and everything this module does for
it may be done again. An edit is idempotent (the same board, text and buttons again); the board's first post and
each turn line carry nonces derived from the notice (Discord returns the earlier message for a repeated nonce);
the board's message id is stored (`Storage.set_board_message`) before the notice is cleared. So a kill -9 at
any point ends, after the next start, with one board message showing the stored position and one turn line.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

import discord

from cogs import _table
from cogs._moving import _table_view
from cogs._session import Session
from cogs._text import clip, name_of, title_of
from i18n import ENGLISH, Words
from storage import GameRow, Notice

log = logging.getLogger(__name__)

POSTS = ("every", "compact")
RECENT = 4  # the earlier moves the board's text shows above the latest
_MENTION = re.compile(r"<@!?(\d+)>")


def compact(row: GameRow) -> bool:
    """Whether the table posts compactly (`/game create posts:compact`, `/game settings posts:`)."""
    return row.table.get("posts") == "compact"


def board_nonce(notice: Notice) -> str:
    """The nonce of the board's first post, made for `notice` (another than the turn line's)."""
    return f"b{notice.game_id:x}.{notice.id:x}"[:25]


def link(row: GameRow, message_id: int) -> str:
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{message_id}"


def named(row: GameRow, content: str, _: Words = ENGLISH) -> str:
    """`content` with every mention turned into the player's name (an edit pings nobody anyway; a name reads
    the same for everyone)."""
    return _MENTION.sub(lambda m: name_of(row, m[1], _), content)


async def recent_lines(session: Session, row: GameRow, before: int, _: Words = ENGLISH) -> list[str]:
    """The public moves just before move number `before` (at most RECENT), as lines of the board's text."""
    rules = session.rules(row.game)
    lines = []
    for m in await session.storage.moves(row.id, since=max(0, before - 1 - RECENT)):
        if m.move_number >= before:
            break
        action = rules.action_from_json(m.action)
        if not rules.is_private(action):
            who, what = name_of(row, m.player, _), _.text(rules.describe(action))
            # i18n: a line of the compact board's recent moves: the move number, who, what
            lines.append(_("`#{n}` {who} {action}", n=m.move_number, who=who, action=what))
    return lines[-RECENT:]


async def board_text(session: Session, row: GameRow, group: Sequence[Notice], content: str, _: Words) -> str:
    """The living board's text: its heading, the moves before this post's, then the post's own words, unpinged."""
    # i18n: the heading of a compact table's living board message; {move} is the number of the latest move
    head = _("📋 **{title}** (game #{id}), move {move}", title=title_of(row.game, _), id=row.id, move=group[-1].version)
    first = group[0].version if group[0].kind == "move" else group[-1].version + 1
    earlier = await recent_lines(session, row, first, _) if group[-1].kind != "start" else []
    return clip("\n".join([head, *earlier, named(row, content, _)]))


def turn_line(row: GameRow, content: str, board_id: int, _: Words) -> str | None:
    """The short post of a move in compact mode: the post's last line if it pings somebody, with a link to the
    board (None: nobody is pinged, nothing is posted)."""
    last = content.splitlines()[-1] if content else ""
    if not _MENTION.search(last):
        return None
    # i18n: a compact table's short post after a move: {turn} is "Your turn, @Ana." ; {link} the board's message
    return clip(_("{turn} ([the board]({link}))", turn=last, link=link(row, board_id)))


async def show(
    client: discord.Client,
    session: Session,
    row: GameRow,
    notice: Notice,
    content: str,
    image: bytes | None,
    view: discord.ui.View | None,
) -> int | None:
    """Edit the game's living board to `content`, `image` and `view` (or post it, the first time or if it was
    deleted); its message id. Idempotent: the same arguments again give the same message. Without an `image` (a
    notice of a history an undo took back since: its position is gone) the board stays as it is, for the
    notice that follows. Raises discord.HTTPException."""
    storage = session.storage
    board = await storage.board_message(row.id)
    if image is None:
        return board
    channel = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
    kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
    if view is not None:
        kwargs["view"] = view
    file = _table.png_file(image)
    if board is not None:
        try:
            # `attachments` lists what the message keeps: only the new board (an edit never piles up images)
            await channel.get_partial_message(board).edit(content=content, attachments=[file] if file else [], **kwargs)
            return board
        except discord.NotFound:
            log.info("the board message of game %s is gone; posting a new one", row.id)
    if file is not None:
        kwargs["files"] = [file]
    posted = await channel.send(content, nonce=board_nonce(notice), **kwargs)
    await storage.set_board_message(row.id, posted.id)
    return posted.id


async def post_turn(client: discord.Client, row: GameRow, text: str, nonce: str, _: Words) -> discord.Message:
    """The turn line, with the table's Play and Board buttons (the same custom ids as under every post)."""
    return await _table.post_public(client, row, text, None, _table_view(row, _), nonce=nonce)
