"""Undo, the service half (no discord): taking back a player's last turn, at once or with the consent of the
table, never past something revealed (the states in between replayed from the deal: `cogs._core.replayed`). A
part of the session; the clock (`clock`, `movers`) comes from its `Tempo` part.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from cogs._core import Core, Part, replayed
from cogs._seating import GameError, encode, staying, still_in
from cogs._tempo import Tempo
from engine import Text
from storage import GameRow, StaleVersion


class Undo(Part):
    """`/game undo` and the table's consent: a part of the session over its core, with the clock (`Tempo`)
    for the due times of the turn it goes back to."""

    def __init__(self, core: Core, tempo: Tempo):
        super().__init__(core)
        self.clock, self.movers = tempo.clock, tempo.movers

    async def replay(self, row: GameRow, moves: list[Any]) -> list[Any]:
        """The states of the game from the deal through each of `moves` (MoveRows): [start, after 1, ...]."""
        return list(replayed(row, moves))

    async def undo(self, game_id: int, player: str) -> tuple[GameRow, str]:
        """Take back `player`'s last turn: at once if nobody acted since and it revealed nothing; with the
        consent of every other human if others acted since (or an AI seat did); never past something revealed
        (a draw, a refill). Returns the row and "done" or "asked"."""
        async with self.lock(game_id):
            row = still_in(await self.load(game_id), player)
            if row.status != "active" or player not in row.player_ids:
                raise GameError(Text("Only a player of a running game can take a move back."))
            if row.table.get("undo"):
                raise GameError(Text("An undo is already waiting for the table's answer."))
            moves = await self.storage.moves(game_id)
            mine = [m.move_number for m in moves if m.player == player]
            if not mine:
                raise GameError(Text("You have no move to take back."))
            first = mine[-1]
            while first - 1 >= 1 and moves[first - 2].player == player:  # the whole turn: its earlier actions too
                first -= 1
            states = await self.replay(row, moves)
            rules = self.rules(row.game)
            for m in moves[first - 1 :]:
                before, after = states[m.move_number - 1], states[m.move_number]
                if rules.reveals(before, m.player, rules.action_from_json(m.action), after):
                    what = rules.describe(rules.action_from_json(m.action))
                    # i18n: undo refused: {what} is the move that revealed something
                    text = Text('That can\'t be taken back: "{what}" revealed something hidden (a card, a tile or a refill everyone has seen since). Nothing was changed.', what=what)  # fmt: skip
                    raise GameError(text)
            keep = first - 1
            others = [p for p in staying(row) if p != player]  # those who left have no say
            if all(m.player == player for m in moves[keep:]) or not others:
                return await self._take_back(row, moves, states, keep, player), "done"
            table = {**row.table, "undo": {"by": player, "keep": keep, "need": others, "yes": []}}
            asked = await self.storage.update_table(
                game_id,
                expect=row.table,
                table=table,
                deadline_at=row.deadline_at,
                notice=("undo_asked", {"by": player, "keep": keep, "version": row.version}),
            )
            if asked is None:
                raise GameError(Text("The table changed meanwhile; try again."))
            self.changed(game_id)
            return asked, "asked"

    async def consent(self, game_id: int, player: str, keep: int, yes: bool) -> tuple[GameRow, str]:
        """A player's answer to a pending undo: the first "no" ends it; the last "yes" carries it out."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            ask = row.table.get("undo")
            if not ask or ask["keep"] != keep:
                raise GameError(Text("That undo was settled already: nothing was changed."))
            if player not in ask["need"]:
                raise GameError(Text("This undo waits for the other players' answers, not yours."))
            table = {k: v for k, v in row.table.items() if k != "undo"}
            if not yes:
                done = await self.storage.update_table(
                    game_id,
                    expect=row.table,
                    table=table,
                    deadline_at=row.deadline_at,
                    notice=("undo_refused", {"by": ask["by"], "no": player}),
                )
                if done is None:
                    raise GameError(Text("The table changed meanwhile; try again."))
                self.changed(game_id)
                return done, "refused"
            ask = {**ask, "yes": sorted({*ask["yes"], player})}
            if set(ask["yes"]) < set(ask["need"]):
                done = await self.storage.update_table(
                    game_id, expect=row.table, table={**table, "undo": ask}, deadline_at=row.deadline_at
                )
                if done is None:
                    raise GameError(Text("The table changed meanwhile; try again."))
                return done, "waiting"
            moves = await self.storage.moves(game_id)
            states = await self.replay(row, moves)
            return await self._take_back(dataclasses.replace(row, table=table), moves, states, keep, ask["by"]), "done"

    async def _take_back(self, row: GameRow, moves: list[Any], states: list[Any], keep: int, by: str) -> GameRow:
        rules = self.rules(row.game)
        state = states[keep]
        kept = moves[:keep]
        turns = sum(not rules.is_free_action(rules.action_from_json(m.action)) for m in kept)
        # the undo counts itself (Position): the move numbers it frees will name new positions
        undos = int(row.table.get("undos", 0)) + 1
        table = {k: v for k, v in row.table.items() if k not in ("undo", "phase", "late", "since")} | {"undos": undos}
        now = time.time()
        away = await self.storage.players(self.movers(row, state))
        due, table = self.clock(row, table, state, away, now)
        undone = [[m.player, m.action] for m in moves[keep:]]
        try:
            done = await self.storage.undo(
                row,
                keep=keep,
                state_json=encode(rules, state),
                turns=turns,
                by=by,
                table=table,
                due=due,
                notice=("undo", {"by": by, "moves": undone, "undos": undos}),
                now=now,
            )
        except StaleVersion:
            raise GameError(Text("Someone moved meanwhile: nothing was taken back.")) from None
        self.forget(row.id)
        self.changed(row.id)
        return done
