"""The table half of the session service: who is seated and may act; create, join, leave, seat and unseat AI
players, set options, start and cancel; find a channel's game; nudge. `cogs._session.Session` inherits it; the
same rules apply as to moves: every change holds the game's lock and is one storage call, and refusals are
`GameError`s whose words (a `Text`) are shown to the user in their language.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import ai
import engine
import present
from engine import Text
from i18n import ENGLISH, N_, Words
from storage import ChannelBusy, Due, GameRow, Seat, StaleVersion, Storage

is_ai = ai.is_ai  # AI seats have ids like "ai:normal:1"; human seats are Discord user ids (digits)
LEVEL_NAME = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}  # the AI levels, shown with `_.text`


def seat_name(seat_id: str, name: str, _: Words = ENGLISH) -> str:
    """A seat's name as players read it: the name it was seated with, or for an AI seat that the bot named
    ("AI (normal) 1"), that name in `_`'s language."""
    if is_ai(seat_id) and name == ai.display_name(seat_id):
        level = _.text(LEVEL_NAME.get(ai.level_of(seat_id), ai.level_of(seat_id)))
        # i18n: an AI player's name: its level ("normal") and its number at the table
        return _("AI ({level}) {number}", level=level, number=seat_id.rpartition(":")[2])
    return name


def ai_available(game: str, options: dict[str, Any] | None = None) -> bool:
    """True if there is an AI player for `game` with these options (the test game of tests/bot has none)."""
    return ai.available(game) and ai.supports(game, options)


class Position(NamedTuple):
    """A position of a game by name, for every cache of what is drawn or derived from it: the game, how many
    undos its history went through (`undos_of`), and the move number in that history. An undo counts itself in
    the same transaction that takes the moves back, so a move number it frees names a new position under a new
    key: no cache can serve the board of a position that was taken back."""

    game_id: int
    undos: int
    version: int


def undos_of(row: GameRow) -> int:
    """How many undos the game's history went through (kept in its table, written with each undo)."""
    return int(row.table.get("undos", 0))


def position(row: GameRow, version: int | None = None) -> Position:
    """The position after move `version` (default: the stored one) of the game's history as `row` has it."""
    return Position(row.id, undos_of(row), row.version if version is None else version)


def encode(rules: engine.Rules, state: Any) -> str:
    """A state as the database stores it: compact JSON."""
    return json.dumps(rules.to_json(state), separators=(",", ":"))


class GameError(Exception):
    """Something the user did that we refuse, shown to them (ephemeral) in their language: the message is a
    `Text` (words as data, translated where it is answered: `_.text(exc.text)`) or a plain string shown as is;
    str() is the English (logs)."""

    def __init__(self, message: Text | str = ""):
        super().__init__(str(message))
        self.text: Text | str = message


def staying(row: GameRow) -> list[str]:
    """The human seats that still play themselves: not AI seats, nor those who left the game (the `left` list)."""
    return [s.id for s in row.seats if not is_ai(s.id) and s.id not in row.table.get("left", ())]


def still_in(row: GameRow, player: str) -> GameRow:
    """`row`, unless `player` left this game for good (cogs/_leaving.py): then a GameError saying so."""
    if player in row.table.get("left", ()):
        raise GameError(Text("You left this game: the AI plays your seat to the end."))
    return row


def reason(exc: Exception) -> Text | str:
    """An engine's or a parser's refusal as words to show: its `Text` when it carries one, else its message."""
    text = getattr(exc, "text", None) or (exc.args[0] if exc.args else None)
    return text if isinstance(text, Text) else str(exc)


class Seating:
    """Operations on the table rather than moves, and who may act; the host class provides `storage`, `lock`,
    `load`, `rules`, `changed`, `_remember`, `state_of` and `to_move`."""

    storage: Storage
    lock: Callable[[int], asyncio.Lock]
    rules: Callable[[str], engine.Rules]
    changed: Callable[[int], None]

    async def load(self, game_id: int) -> GameRow:
        raise NotImplementedError

    def _remember(self, key: Position, state: Any) -> None:
        raise NotImplementedError

    def state_of(self, row: GameRow) -> Any:
        raise NotImplementedError

    def to_move(self, row: GameRow) -> list[str]:
        raise NotImplementedError

    def clock(
        self, row: GameRow, table: dict[str, Any], state: Any, away: dict[str, Any], now: float
    ) -> tuple[Due, dict[str, Any]]:
        raise NotImplementedError

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
        async with self.lock(game_id):
            row = await self.load(game_id)
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
        async with self.lock(game_id):
            row = await self.load(game_id)
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
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(
                row,
                player,
                Text("AI players can only be added before the game starts."),
                Text("Only the creator ({creator}) can add AI players.", creator=row.seat_name(row.creator_id)),
            )
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
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(
                row,
                player,
                Text("The game has started: its AI players stay until the end."),
                Text("Only the creator ({creator}) can remove AI players.", creator=row.seat_name(row.creator_id)),
            )
            bots = [s for s in row.seats if is_ai(s.id)]
            if not bots:
                raise GameError(Text("There is no AI player in this game."))
            if seat_id is None:
                gone = bots[-1]
            else:
                gone = next((s for s in bots if s.id == seat_id or s.name.lower() == seat_id.strip().lower()), None)
                if gone is None:
                    names = ", ".join(s.name for s in bots)
                    raise GameError(
                        Text("There is no AI player `{seat}` here. AI players: {names}.", seat=seat_id, names=names)
                    )
            seats = [s for s in row.seats if s.id != gone.id]
            return await self.storage.update_lobby(game_id, seats=seats), gone

    async def set_options(self, game_id: int, player: str, options: Mapping[str, Any]) -> GameRow:
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(
                row,
                player,
                Text("Options can only be changed before the game starts."),
                Text("Only the creator ({creator}) can change its options.", creator=row.seat_name(row.creator_id)),
            )
            try:
                merged = self.rules(row.game).normalise_options({**row.options, **options})
            except ValueError as exc:
                raise GameError(reason(exc)) from None
            return await self.storage.update_lobby(game_id, options=merged)

    async def start(self, game_id: int, player: str) -> tuple[GameRow, Any]:
        """Deal the game (seats in joining order). Only the creator may start."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(
                row,
                player,
                Text("This game has already started."),
                Text("Only the creator ({creator}) can start the game.", creator=row.seat_name(row.creator_id)),
            )
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
            due, _due = self.clock(row, row.table, state, await self.storage.players(list(row.player_ids)), time.time())
            try:
                row = await self.storage.start_game(
                    game_id,
                    seats=row.seats,
                    state_json=encode(rules, state),
                    due=due,
                    notice=("start", {"movers": rules.to_move(state)}),
                )
            except StaleVersion:
                raise GameError(Text("This game has already started.")) from None
            self._remember(position(row), state)
        self.changed(game_id)  # the herald posts the first board; an AI seat may move first
        return row, state

    async def cancel(self, game_id: int, player: str, *, can_manage: bool) -> GameRow:
        async with self.lock(game_id):
            row = await self.load(game_id)
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
