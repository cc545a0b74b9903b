"""A human substitute for a vacant seat, the service half (no discord): a part of the session.

A seat is **vacant** when its player left the game for good (the table's `left` list: cogs/_leaving.py), or when
the AI has stood in for them "until back" (`sub` mode "back": cogs/_tempo.py) for their last `STANDIN_RUN` moves
in a row. The table's posts then offer **Take this seat** (cogs/_moving.py) to anyone not playing. The newcomer
asks (`ask_seat`), and the table consents as it does to an undo (cogs/_undo.py): every human who still plays for
themselves agrees (`seat_consent`: the first "no" ends it; a table with no other human agrees at once). The last
"yes" hands the seat over (`replace_seat` in storage: one compare-and-set transaction with its notice):

- the seat's player id becomes the newcomer's everywhere the game names it (the engine state, the seats, the
  table's arrangements such as a time bank), so the newcomer holds the seat's hand and every other private
  thing the seat had, seen only through their own private views (**My hand**, their panel);
- the seat stops being vacant (out of `left` and `sub`); the table's `substitutes` {newcomer: the seat's first
  player} marks them, and records/ stores them as a substitute, never rated for that game (records/ratings.py);
- the position gets a new name (the table's history counter, as an undo's): no cached state, board or panel of
  the seat's former player is used for the newcomer.

The player who left has no result in that game (their seat is the newcomer's); moves made before the hand-over
stay theirs in the move log.
"""

from __future__ import annotations

import json
from typing import Any

from cogs._core import Part
from cogs._seating import GameError, is_ai, staying
from engine import Text
from storage import GameRow, Seat

STANDIN_RUN = 3  # a seat the AI stood in for "until back" for this many of its moves in a row is vacant


def vacant(row: GameRow, standin_run: list[str] | None = None) -> list[str]:
    """The vacant seats of a running game, in seat order: those who left for good, and (with `standin_run`, the
    players whose last STANDIN_RUN moves a stand-in made) those the AI stood in for until back that long."""
    left = set(row.table.get("left", ()))
    sub = row.table.get("sub", {})
    long = set(standin_run or ()) & {p for p, mode in sub.items() if mode == "back"}
    return [s.id for s in row.seats if not is_ai(s.id) and (s.id in left or s.id in long)]


def may_be_vacant(row: GameRow) -> bool:
    """Whether the table's posts offer Take this seat: someone left, or the AI stands in until they are back
    (the click finds out whether that has lasted long enough)."""
    if row.status != "active":
        return False
    return bool(row.table.get("left")) or "back" in row.table.get("sub", {}).values()


class Substitutes(Part):
    """Taking over a vacant seat, with the table's consent."""

    async def _vacant(self, row: GameRow) -> list[str]:
        sub = row.table.get("sub", {})
        run = []
        if "back" in sub.values():
            moves = await self.storage.moves(row.id)
            for p, mode in sub.items():
                mine = [m for m in moves if m.player == p][-STANDIN_RUN:]
                if mode == "back" and len(mine) == STANDIN_RUN and all(m.standin for m in mine):
                    run.append(p)
        return vacant(row, run)

    async def ask_seat(self, game_id: int, newcomer: Seat) -> tuple[GameRow, str]:
        """`newcomer` asks for a vacant seat: (the row, "asked") while the table decides, (row, "done") if
        nobody else has a say."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            if row.status != "active":
                raise GameError(Text("This game is over: no more moves."))
            if newcomer.id in row.player_ids:
                raise GameError(Text("You are playing in this game already."))
            if row.table.get("seat_ask"):
                raise GameError(Text("Someone is already waiting for the table's answer to take a seat here."))
            seats = await self._vacant(row)
            if not seats:
                raise GameError(Text("No seat is vacant at this table: nothing was changed."))
            seat = seats[0]
            need = [p for p in staying(row) if p != seat]
            n = int(row.table.get("seat_asks", 0)) + 1
            ask = {"by": newcomer.id, "name": newcomer.name, "seat": seat, "need": need, "yes": [], "n": n}
            if not need:
                return await self._hand_over(row, ask), "done"
            table = {**row.table, "seat_ask": ask, "seat_asks": n}
            done = await self.storage.update_table(
                game_id,
                expect=row.table,
                table=table,
                deadline_at=row.deadline_at,
                notice=("seat_asked", {"by": newcomer.id, "name": newcomer.name, "seat": seat, "n": n}),
            )
            if done is None:
                raise GameError(Text("The table changed meanwhile; try again."))
        self.changed(game_id)
        return done, "asked"

    async def seat_consent(self, game_id: int, player: str, n: int, yes: bool) -> tuple[GameRow, str]:
        """A player's answer to a newcomer asking for a seat: "refused", "waiting" or "done" (handed over)."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            ask = row.table.get("seat_ask")
            if not ask or ask["n"] != n or row.status != "active":
                raise GameError(Text("That request was settled already: nothing was changed."))
            if player not in ask["need"] or player not in staying(row):
                raise GameError(Text("This request waits for the players' answers, not yours."))
            table = {k: v for k, v in row.table.items() if k != "seat_ask"}
            if not yes:
                done = await self.storage.update_table(
                    game_id,
                    expect=row.table,
                    table=table,
                    deadline_at=row.deadline_at,
                    notice=("seat_refused", {"by": ask["by"], "name": ask["name"], "no": player}),
                )
                if done is None:
                    raise GameError(Text("The table changed meanwhile; try again."))
                self.changed(game_id)
                return done, "refused"
            ask = {**ask, "yes": sorted({*ask["yes"], player})}
            if set(ask["yes"]) < set(ask["need"]) & set(staying(row)):
                done = await self.storage.update_table(
                    game_id, expect=row.table, table={**table, "seat_ask": ask}, deadline_at=row.deadline_at
                )
                if done is None:
                    raise GameError(Text("The table changed meanwhile; try again."))
                return done, "waiting"
            return await self._hand_over(row, ask), "done"

    async def _hand_over(self, row: GameRow, ask: dict[str, Any]) -> GameRow:
        """The seat becomes the newcomer's (under the game's lock): state, seats and table in one transaction."""
        old, new = str(ask["seat"]), str(ask["by"])
        rules = self.rules(row.game)
        state_json = _renamed(row.state_json or "{}", old, new)
        rules.from_json(json.loads(state_json))  # the renamed state is a state of the game
        seats = tuple(Seat(new, str(ask["name"])) if s.id == old else s for s in row.seats)
        table = json.loads(_renamed(json.dumps({k: v for k, v in row.table.items() if k != "seat_ask"}), old, new))
        table["left"] = [p for p in table.get("left", ()) if p != new]
        table["sub"] = {p: mode for p, mode in table.get("sub", {}).items() if p != new}
        for key in ("left", "sub"):
            if not table[key]:
                del table[key]
        subs = dict(table.get("substitutes", {}))
        subs.setdefault(new, old)  # the seat's first player (a substitute's substitute keeps the first)
        table["substitutes"] = subs
        table["undos"] = int(table.get("undos", 0)) + 1  # a new name for the position (no cached view of the old)
        done = await self.storage.replace_seat(
            row,
            seats=seats,
            state_json=state_json,
            table=table,
            notice=("seat_taken", {"by": new, "seat": old, "name": row.seat_name(old), "undos": table["undos"]}),
        )
        if done is None:
            raise GameError(Text("The table changed meanwhile; try again."))
        self.forget(row.id)
        self.changed(row.id)
        return done


def _renamed(text: str, old: str, new: str) -> str:
    """JSON text with the player id `old` (a JSON string, as a value or a key) replaced by `new`."""
    return text.replace(json.dumps(old), json.dumps(new))
