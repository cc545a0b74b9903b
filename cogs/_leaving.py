"""Leaving a running game for good (such a player is ranked last).

`/game leave` in a running game asks the seated human to confirm, on an ephemeral post only they see (`ask`:
**Leave for good** or **Keep my seat**, a `LeaveButton` each; not clicking changes nothing). Confirming
(`abandon`) is one storage call, `update_table` (compare-and-set, as every arrangement of the table in
cogs._tempo), holding the game's lock: the player joins the table's `left` list, the AI stands in for their seat
to the end (the stand-in mechanism of "AI until back", in the mode "left", at the stand-ins' level normal), and
the "left" notice is stored in the same transaction, so the public post (cogs._moving) survives a crash.
Records place everyone in `left` last and rate them however many moves the stand-in made (records/ratings.py).

A player who left cannot come back: their panel, moves, free actions, *I'm back* and undo are refused
(`cogs._seating.still_in`); they are no longer pinged or reminded (the AI plays their turns at once), an undo
waiting for them is dropped, and they have no say in the table's decisions nor cancel the game as its creator.
If no human who plays for themselves would be left, the game is cancelled instead (a cancelled game is never
rated) and a public line says so.

Stand-ins disabled (`/game settings standins:False`) do not stop a player from leaving: that setting is the
table's choice to wait for late or away players rather than let the AI play them; a player who left is not
coming back, so the AI plays their seat there too.
"""

from __future__ import annotations

import time
from typing import Any

import discord

from cogs._items import GID, GameItem, game_here, make_button, new_view, reply, session_of
from cogs._lobby import refresh_lobby
from cogs._locale import user_words
from cogs._seating import GameError, staying, still_in
from cogs._session import Session
from cogs._table import post_note
from cogs._text import name_of
from engine import Text
from storage import GameRow

MODE = "left"  # a leaver's mode among the table's stand-ins (`sub`)


async def abandon(session: Session, game_id: int, player: str) -> tuple[GameRow, bool]:
    """`player` leaves the running game for good: the stored row, and whether the game was cancelled instead
    (nobody else plays for themselves)."""
    async with session.lock(game_id):
        row = still_in(await session.load(game_id), player)
        if row.status != "active":
            raise GameError(Text("This game is over: no more moves."))
        if player not in staying(row):
            raise GameError(Text("You are not seated in this game."))
        if not [p for p in staying(row) if p != player]:
            if not await session.storage.cancel_game(game_id):
                raise GameError(Text("This game is over: no more moves."))
            return await session.load(game_id), True
        table = {**row.table, "left": [*row.table.get("left", ()), player]}
        table["sub"] = {**table.get("sub", {}), player: MODE}
        ask = table.get("undo")
        if ask and (ask["by"] == player or player in ask["need"]):
            del table["undo"]  # it would wait for them forever: its buttons now say it was settled
        state = session.state_of(row)
        deadline, ai = row.deadline_at, False
        if player in session.movers(row, state):  # their turn: the AI plays it now; the clock is the others'
            away = await session.storage.players(session.movers(row, state))
            due, table = session.clock(row, table, state, away, row.turn_started_at or time.time())
            deadline, ai = due.deadline_at, due.ai
        done = await session.storage.update_table(
            game_id, expect=row.table, table=table, deadline_at=deadline, notice=("left", {"player": player})
        )
        if done is None:
            raise GameError(Text("The table changed meanwhile; try again."))
        if ai:
            await session.storage.set_ai_due(game_id, row.version, True)
    session.changed(game_id)  # the herald posts the notice; the AI plays their turn if it is theirs
    return done, False


class LeaveButton(GameItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"lv:{GID}:(?P<op>go|stay)"):
    """The answer to `/game leave` in a running game, on the player's own ephemeral confirmation."""

    private = True

    def __init__(self, gid: int, op: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary):
        super().__init__(make_button(f"lv:{gid}:{op}", label or op, style))
        self.gid, self.op = gid, op

    async def handle(self, interaction: discord.Interaction) -> None:
        row = await game_here(interaction, self.gid)
        _ = user_words(interaction)
        if self.op == "stay":
            # i18n: the answer to "Keep my seat" under the confirmation of /game leave
            await interaction.response.edit_message(content=_("You keep your seat: nothing was changed."), view=None)
            return
        me = str(interaction.user.id)
        row, cancelled = await abandon(session_of(interaction), row.id, me)
        await interaction.response.edit_message(content=_("You left the game."), view=None)
        if cancelled:
            await _cancelled(interaction.client, row, me)


async def ask(interaction: discord.Interaction, row: GameRow) -> None:
    """`/game leave` in a running game: the confirmation, to the player only (nothing changes before they
    confirm)."""
    me = str(interaction.user.id)
    still_in(row, me)
    if me not in staying(row):
        raise GameError(Text("You are not seated in this game."))
    _ = user_words(interaction)
    if [p for p in staying(row) if p != me]:
        # i18n: /game leave in a running game: the confirmation ({number}: the game's number)
        text = _("Leave game #{number} for good? The AI plays your seat to the end; you will be ranked last.", number=row.id)  # fmt: skip
    else:
        # i18n: /game leave in a running game by its last human player: the confirmation
        text = _("Leave game #{number} for good? Nobody else plays it any more, so it will be cancelled.", number=row.id)  # fmt: skip
    view = new_view(
        # i18n: a button under the confirmation of /game leave in a running game
        LeaveButton(row.id, "go", _("Leave for good"), discord.ButtonStyle.danger),
        # i18n: a button under the confirmation of /game leave: change nothing
        LeaveButton(row.id, "stay", _("Keep my seat")),
    )
    await reply(interaction, text, view=view)


async def _cancelled(client: discord.Client, row: GameRow, player: str) -> None:
    """The public line when the last human left (the game is cancelled), in the server's language."""
    _ = await client.session.languages.public(row.guild_id)  # type: ignore[attr-defined]
    # i18n: public: the last human player left a running game, which is therefore cancelled
    text = _("🚪 {who} left the game: nobody is left to play it, so it is cancelled.", who=name_of(row, player, _))
    await post_note(client, row, text)
    await refresh_lobby(client, row)
