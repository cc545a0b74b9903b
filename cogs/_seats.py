"""The table part of the session service: who is seated and may act; create, join, leave, seat and unseat AI
players, set options, start and cancel; find a channel's game. The same rules apply as to moves: every change
holds the game's lock and is one storage call, and refusals are `GameError`s (cogs/_seating.py).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

import ai
import engine
import present
from cogs._core import Core, Part
from cogs._seating import GameError, ai_available, encode, is_ai, position, reason, still_in
from cogs._tempo import Tempo
from engine import Text
from storage import ChannelBusy, GameRow, Seat, StaleVersion


class Seating(Part):
    """Operations on the table rather than moves, and who may act: a part of the session over its core, with
    the clock (`Tempo`) for the first turn's due times."""

    def __init__(self, core: Core, tempo: Tempo):
        super().__init__(core)
        self.clock, self.dm_to = tempo.clock, tempo.dm_to

    # -- who may act -------------------------------------------------------------------------------------

    def check_seated(self, row: GameRow, player: str, standin: bool = False) -> Any:
        """The state, if `player` is seated in this running game (free actions need no turn) and did not leave it
        (but the AI standing in for them may act: `standin`); else a GameError saying why."""
        if row.status == "lobby":
            raise GameError(Text("This game hasn't started yet."))
        if row.status != "active":
            raise GameError(Text("This game is over: no more moves."))
        if player not in row.player_ids:
            raise GameError(Text("You are not playing in this game; you can watch it with the Board button."))
        return self.state_of(row if standin else still_in(row, player))

    def check_player(self, row: GameRow, player: str, standin: bool = False) -> Any:
        """The state, if `player` may act in this game now; else a GameError saying why."""
        state = self.check_seated(row, player, standin)
        movers = self.rules(row.game).to_move(state)
        if player not in movers:
            names, nobody = ", ".join(row.seat_name(p) for p in movers), Text("It's not your turn: waiting for nobody.")
            raise GameError(Text("It's not your turn: waiting for {names}.", names=names) if movers else nobody)
        return state

    # -- the table ---------------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        options: Mapping[str, Any],
        creator: Seat,
        seed: int | None = None,
        reminder_hours: float = 24,
    ) -> GameRow:
        if game not in engine.GAMES:
            raise GameError(
                Text("I don't know the game `{game}`. Games: {games}.", game=game, games=", ".join(engine.GAMES))
            )
        rules = self.rules(game)
        try:
            options = rules.normalise_options(options)
        except ValueError as exc:
            raise GameError(reason(exc)) from None
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        try:
            return await self.storage.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                options=options,
                seed=seed,
                creator=creator,
                reminder_hours=reminder_hours,
            )
        except ChannelBusy:
            other = await self.storage.game_in_channel(channel_id)
            if other is None:
                raise GameError(
                    Text(
                        "This channel already has a game. Finish or `/game cancel` it first, "
                        "or create yours in a thread (`thread: True`)."
                    )
                ) from None
            raise GameError(
                Text(
                    "This channel already has a game of {title}. Finish or `/game cancel` it first, "
                    "or create yours in a thread (`thread: True`).",
                    title=present.title(other.game),
                )
            ) from None

    async def join(self, game_id: int, seat: Seat) -> GameRow:
        async with self.locked(game_id) as row:
            if row.status != "lobby":
                raise GameError(Text("This game has already started; you can watch it here."))
            if seat.id in row.player_ids:
                raise GameError(Text("You are already seated in this game."))
            rules = self.rules(row.game)
            if len(row.seats) >= rules.player_counts[-1]:
                hi = rules.player_counts[-1]
                raise GameError(Text("The table is full ({n} player).", "The table is full ({n} players).", n=hi))
            return await self.storage.update_lobby(game_id, seats=(*row.seats, seat))

    async def leave(self, game_id: int, player: str) -> GameRow:
        async with self.locked(game_id) as row:
            if row.status != "lobby":
                raise GameError(
                    Text("The game has started: you can't leave it now. The creator can `/game cancel` it.")
                )
            if player not in row.player_ids:
                raise GameError(Text("You are not seated in this game."))
            if player == row.creator_id:
                raise GameError(Text("You created this game: use Cancel to call it off."))
            return await self.storage.update_lobby(game_id, seats=[s for s in row.seats if s.id != player])

    @staticmethod
    def _creator_in_lobby(row: GameRow, player: str, started: Text, only: Text) -> None:
        """Lobby changes only the creator may make: GameError `started` after the start, `only` (naming the
        creator: its field `creator`) for anyone else."""
        if row.status != "lobby":
            raise GameError(started)
        if player != row.creator_id:
            raise GameError(only)

    async def add_ai(self, game_id: int, player: str, level: str, count: int = 1) -> tuple[GameRow, list[Seat]]:
        """Seat `count` AI players of `level` (creator only, in the lobby). Returns the lobby and the new seats."""
        async with self.locked(game_id) as row:
            started, only = (
                Text("AI players can only be added before the game starts."),
                Text("Only the creator ({creator}) can add AI players.", creator=row.seat_name(row.creator_id)),
            )
            self._creator_in_lobby(row, player, started, only)
            if level not in ai.LEVELS:
                levels = ", ".join(ai.LEVELS)
                raise GameError(Text("There is no AI level `{level}`. Levels: {levels}.", level=level, levels=levels))
            if not ai_available(row.game, row.options):
                raise GameError(Text("There is no AI player for {title} yet.", title=present.title(row.game)))
            hi = self.rules(row.game).player_counts[-1]
            if count < 1:
                raise GameError(Text("Add at least one AI player."))
            if len(row.seats) + count > hi:
                free = hi - len(row.seats)
                if free <= 0:
                    raise GameError(Text("The table is full ({n} player).", "The table is full ({n} players).", n=hi))
                raise GameError(
                    Text(
                        "Only {n} seat left (at most {most} players).",
                        "Only {n} seats left (at most {most} players).",
                        n=free,
                        most=hi,
                    )
                )
            seats = list(row.seats)
            added = []
            for _i in range(count):
                pid = ai.next_ai_player_id(level, [s.id for s in seats])
                added.append(Seat(pid, ai.display_name(pid)))
                seats.append(added[-1])
            return await self.storage.update_lobby(game_id, seats=seats), added

    async def remove_ai(self, game_id: int, player: str, seat_id: str | None = None) -> tuple[GameRow, Seat]:
        """Take an AI seat away (creator only, in the lobby): `seat_id`, or the last AI seat added."""
        async with self.locked(game_id) as row:
            started, only = (
                Text("The game has started: its AI players stay until the end."),
                Text("Only the creator ({creator}) can remove AI players.", creator=row.seat_name(row.creator_id)),
            )
            self._creator_in_lobby(row, player, started, only)
            bots = [s for s in row.seats if is_ai(s.id)]
            if not bots:
                raise GameError(Text("There is no AI player in this game."))
            if seat_id is None:
                gone = bots[-1]
            else:
                found = next((s for s in bots if s.id == seat_id or s.name.lower() == seat_id.strip().lower()), None)
                if found is None:
                    names = ", ".join(s.name for s in bots)
                    raise GameError(
                        Text("There is no AI player `{seat}` here. AI players: {names}.", seat=seat_id, names=names)
                    )
                gone = found
            seats = [s for s in row.seats if s.id != gone.id]
            return await self.storage.update_lobby(game_id, seats=seats), gone

    async def set_options(self, game_id: int, player: str, options: Mapping[str, Any]) -> GameRow:
        async with self.locked(game_id) as row:
            started, only = (
                Text("Options can only be changed before the game starts."),
                Text("Only the creator ({creator}) can change its options.", creator=row.seat_name(row.creator_id)),
            )
            self._creator_in_lobby(row, player, started, only)
            try:
                merged = self.rules(row.game).normalise_options({**row.options, **options})
            except ValueError as exc:
                raise GameError(reason(exc)) from None
            return await self.storage.update_lobby(game_id, options=merged)

    async def start(self, game_id: int, player: str) -> tuple[GameRow, Any]:
        """Deal the game (seats in joining order). Only the creator may start."""
        async with self.locked(game_id) as row:
            started, only = (
                Text("This game has already started."),
                Text("Only the creator ({creator}) can start the game.", creator=row.seat_name(row.creator_id)),
            )
            self._creator_in_lobby(row, player, started, only)
            rules = self.rules(row.game)
            lo = rules.player_counts[0]
            if all(is_ai(s.id) for s in row.seats):  # cannot happen from the lobby (the creator keeps a seat)
                raise GameError(Text("A game needs at least one human player."))
            if len(row.seats) < lo:
                need = lo - len(row.seats)
                raise GameError(
                    Text(
                        "{title} needs at least {least} players: waiting for {n} more to join.",
                        "{title} needs at least {least} players: waiting for {n} more to join.",
                        title=present.title(row.game),
                        least=lo,
                        n=need,
                    )
                )
            try:
                state = rules.new_game(list(row.player_ids), row.options, row.seed)
            except ValueError as exc:
                raise GameError(reason(exc)) from None
            players, now = await self.storage.players(list(row.player_ids)), time.time()
            due, _due = self.clock(row, row.table, state, players, now)
            begins = {"player": "", "before": [], "side": [], "to_move": rules.to_move(state)}
            dm = self.dm_to(begins, players, now)  # the first to move, by DM too where they asked for it
            try:
                row = await self.storage.start_game(
                    game_id,
                    seats=row.seats,
                    state_json=encode(rules, state),
                    due=due,
                    notice=("start", {"movers": rules.to_move(state)} | ({"dm": dm} if dm else {})),
                )
            except StaleVersion:
                raise GameError(Text("This game has already started.")) from None
            self.remember(position(row), state)
        self.changed(game_id)  # the herald posts the first board; an AI seat may move first
        return row, state

    async def cancel(self, game_id: int, player: str, *, can_manage: bool) -> GameRow:
        async with self.locked(game_id) as row:
            if row.status not in ("lobby", "active"):
                raise GameError(Text("This game is already over."))
            if (player != row.creator_id or player in row.table.get("left", ())) and not can_manage:
                raise GameError(
                    Text("Only the creator of the game or someone with the Manage Channels permission can cancel it.")
                )
            await self.storage.cancel_game(game_id)
            return await self.load(game_id)

    async def in_channel(self, channel_id: int, *, finished_too: bool = False) -> GameRow:
        """The channel's game in its lobby or running (with `finished_too`, else its most recent game). If there
        is none, a GameError that says so, and what became of the last game here."""
        row = await self.storage.game_in_channel(channel_id)
        last = row or await self.storage.last_game_in_channel(channel_id)
        if row is None and finished_too and last is not None:
            return last
        if row is None:
            if last is not None and last.status in ("finished", "cancelled"):
                title, number = present.title(last.game), last.id
                if last.status == "finished":
                    raise GameError(
                        Text(
                            "There is no game running in this channel: the last one, {title} (#{number}), is over: "
                            "`/game status` shows the results. Start a new one with `/game create`.",
                            title=title,
                            number=number,
                        )
                    )
                raise GameError(
                    Text(
                        "There is no game running in this channel: the last one, {title} (#{number}), was "
                        "cancelled. Start a new one with `/game create`.",
                        title=title,
                        number=number,
                    )
                )
            raise GameError(Text("There is no game in this channel. Start one with `/game create`."))
        return row
