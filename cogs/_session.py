"""The session service: the one path by which a game is created, joined, started and played.

Every entry point (buttons, selects, slash commands, reminders, and later AI seats) goes through `Session`, so the
checks, the locking and the transaction are in one place. No discord here: methods take plain ids and return
records; the cogs turn them into messages. `act` is the heart of it:

    per-game asyncio lock -> load the row -> rules.apply -> store move + state in ONE transaction (optimistic
    version check) -> render the public image off the event loop -> MoveResult (what happened, who is to move)

AI seats are seats whose id marks them as AI (`ai.is_ai`: "ai:normal:1"); the lobby adds and removes them here
(`add_ai`, `remove_ai`), and `cogs.ai_seats` submits their actions through `act` exactly like a click does. After
every committed move (and after a start, via `changed`) the session calls its `listeners` with the game id: that
is how the AI player learns it may be its turn, whatever path the move came by.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import json
import logging
import random
import time
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import ai
import engine
from storage import ChannelBusy, GameRow, Seat, StaleVersion, Storage

log = logging.getLogger(__name__)

is_ai = ai.is_ai  # AI seats have ids like "ai:normal:1"; human seats are Discord user ids (digits)

# The log kind the engines write for every turn action (text = describe(action), data["action"] = its JSON) so
# the images can mark the last move. The bot already prints the action's own text: such entries are never
# turned into lines.
MOVE_EVENT = "move"

# Action kinds whose very choice is private (the player's own business): never announced, and shown to others
# only as "changes a private setting" in /game log. V66: the standing order for bonus cards.
PRIVATE_KINDS: dict[str, frozenset[str]] = {"alhambra": frozenset({"set_bonus_autoplay"})}


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = digits[d] + out
        if not n:
            return out


def ai_available(game: str, options: dict[str, Any] | None = None) -> bool:
    """True if there is an AI player for `game` with these options (the test game of tests/bot has none)."""
    try:
        ai.adapter(game)
    except Exception:
        return False
    return ai.supports(game, options)


class GameError(Exception):
    """Something the user did that we refuse; the message is shown to them (ephemeral) as is."""


class StaleMove(GameError):
    """The game moved on since the panel or command was prepared."""


@dataclasses.dataclass(frozen=True, slots=True)
class MoveResult:
    """What one applied action produced, for the cog to announce."""

    row: GameRow  # the stored game after the move
    player: str  # who acted
    action_text: str  # rules.describe(action): "takes the blue 7"
    events: tuple[tuple[str | None, str], ...]  # new public log entries: (player or None, text)
    private_events: tuple[str, ...]  # new log entries private to the actor, for their ephemeral reply
    to_move: tuple[str, ...]
    before: tuple[str, ...]  # who could move before this action, out-of-turn players (`side`) aside: players
    # are pinged only when their turn begins
    finished: bool
    scores: Mapping[str, int]  # final scores once finished (else the running scores)
    winners: tuple[str, ...]
    image: bytes | None  # the public board after the move (None if rendering failed)
    # players in to_move only because they may act out of turn (Alhambra's vizier window, V4/V12): the post
    # names them in one line instead of pinging them after every move
    side: tuple[str, ...] = ()
    free: bool = False  # a free action (a bonus card, V62/V66): not a turn action, whose move it is did not change


# --------------------------------------------------------------------------------------------- rendering


def _render(game: str, view: Any, viewer: str | None, names: Mapping[str, str], **extra: Any) -> bytes | None:
    """PNG bytes, or None if the renderer is missing or fails: the bot then posts text only (logged)."""
    try:
        from render import render_png
    except Exception:
        log.warning("render package unavailable; posting without images", exc_info=True)
        return None
    try:
        if viewer is None:
            return render_png(game, view, names=dict(names), **extra)
        return render_png(game, view, viewer=viewer, names=dict(names), **extra)
    except Exception:
        log.exception("rendering %s failed (viewer=%s); posting without an image", game, viewer)
        return None


# --------------------------------------------------------------------------------------------- the service


class Session:
    """Game lifecycle and moves over a `Storage`. One per bot."""

    def __init__(self, storage: Storage, *, state_cache_size: int = 64, image_cache_size: int = 64):
        self.storage = storage
        self._locks: dict[int, asyncio.Lock] = {}
        self._states: collections.OrderedDict[tuple[int, int], Any] = collections.OrderedDict()
        self._images: collections.OrderedDict[tuple[int, int, str | None], bytes | None] = collections.OrderedDict()
        self._state_cache_size = state_cache_size
        self._image_cache_size = image_cache_size
        # called with a game id after each committed move, and after a start once its first post is out
        self.listeners: list[Callable[[int], None]] = []

    # -- helpers -----------------------------------------------------------------------------------------

    @staticmethod
    def rules(game: str):
        return engine.get_rules(game)

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock serialising changes to one game; different games never wait for each other."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def state_of(self, row: GameRow) -> Any:
        """The engine state of a running or finished game (decoded once per version, then cached)."""
        if row.state is None:
            raise GameError("This game has not started yet.")
        key = (row.id, row.version)
        state = self._states.get(key)
        if state is None:
            state = self.rules(row.game).from_json(row.state)
            self._remember(self._states, key, state, self._state_cache_size)
        return state

    @staticmethod
    def _remember(cache: collections.OrderedDict, key: Any, value: Any, size: int) -> None:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > size:
            cache.popitem(last=False)

    def changed(self, game_id: int) -> None:
        """Tell the listeners (the AI player) that `game_id` moved on. They only schedule work; never raises."""
        for listener in list(self.listeners):
            try:
                listener(game_id)
            except Exception:
                log.exception("a listener failed for game %s", game_id)

    @staticmethod
    def names(row: GameRow) -> dict[str, str]:
        return {s.id: s.name for s in row.seats}

    async def load(self, game_id: int) -> GameRow:
        row = await self.storage.load_game(game_id)
        if row is None:
            raise GameError("I can't find that game any more.")
        return row

    async def in_channel(self, channel_id: int, *, finished_too: bool = False) -> GameRow:
        """The channel's game in its lobby or running (with `finished_too`, else its most recent game). If there
        is none, a GameError that says so, and what became of the last game here."""
        row = await self.storage.game_in_channel(channel_id)
        last = row or await self.storage.last_game_in_channel(channel_id)
        if row is None and finished_too and last is not None:
            return last
        if row is None:
            if last is not None and last.status in ("finished", "cancelled"):
                what = f"{self.rules(last.game).title} (#{last.id})"
                how = "is over: `/game status` shows the results" if last.status == "finished" else "was cancelled"
                raise GameError(f"There is no game running in this channel: the last one, {what}, {how}. "
                                "Start a new one with `/game create`.")
            raise GameError("There is no game in this channel. Start one with `/game create`.")
        return row

    # -- images ------------------------------------------------------------------------------------------

    async def public_image(self, row: GameRow, state: Any | None = None) -> bytes | None:
        """The public board (rules.view(state, None)), rendered off the event loop, cached per move."""
        return await self._image(row, None, state)

    async def private_image(self, row: GameRow, player: str) -> bytes | None:
        """What `player` may see (their hand added), rendered with viewer=player. Ephemeral use only."""
        return await self._image(row, player, None)

    async def _image(self, row: GameRow, viewer: str | None, state: Any | None) -> bytes | None:
        key = (row.id, row.version, viewer)
        if key in self._images:
            return self._images[key]
        rules = self.rules(row.game)
        state = self.state_of(row) if state is None else state
        view = rules.view(state, viewer)  # never more than the viewer may see reaches the renderer
        png = await asyncio.to_thread(_render, row.game, view, viewer, self.names(row))
        self._remember(self._images, key, png, self._image_cache_size)
        return png

    async def preview_image(self, row: GameRow, player: str, view: Any, highlight: Any) -> bytes | None:
        """A small picture of the player's own board after a tentative placement (`view` is theirs)."""
        return await asyncio.to_thread(_render, row.game, view, player, self.names(row), highlight=highlight,
                                       focus=True)

    # -- lobby -------------------------------------------------------------------------------------------

    def parse_options(self, game: str, text: str | None) -> dict[str, Any]:
        """Options typed as "name=value, name=value" (yes/no options also as just "name" or "no-name")."""
        rules = self.rules(game)
        options: dict[str, Any] = {}
        for part in (text or "").replace(";", ",").split(","):
            part = part.strip()
            if not part:
                continue
            name, sep, value = part.partition("=")
            name = name.strip().lower().replace(" ", "_").replace("-", "_")
            negate = False
            if not sep and name.startswith("no_") and name[3:] in rules.options:
                name, negate = name[3:], True
            opt = rules.options.get(name)
            if opt is None:
                known = ", ".join(rules.options) or "none"
                raise GameError(f"{rules.title} has no option `{name}`. Options: {known}.")
            if not opt.choices:
                if not sep:
                    options[name] = not negate
                    continue
                v = value.strip().lower()
                if v in ("yes", "y", "true", "on", "1"):
                    options[name] = True
                elif v in ("no", "n", "false", "off", "0"):
                    options[name] = False
                else:
                    raise GameError(f"Option `{name}` is yes or no, not `{value.strip()}`.")
                continue
            if not sep:
                shown = ", ".join(str(c) for c in opt.choices)
                raise GameError(f"Option `{name}` needs a value: `{name}=...` with one of {shown}.")
            by_text = {str(c).lower(): c for c in opt.choices}
            choice = by_text.get(value.strip().lower())
            if choice is None:
                shown = ", ".join(str(c) for c in opt.choices)
                raise GameError(f"Option `{name}` must be one of {shown}, not `{value.strip()}`.")
            options[name] = choice
        try:
            return rules.normalise_options(options)
        except ValueError as exc:
            raise GameError(str(exc)) from None

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
            raise GameError(f"I don't know the game `{game}`. Games: {', '.join(engine.GAMES)}.")
        rules = self.rules(game)
        try:
            options = rules.normalise_options(options)
        except ValueError as exc:
            raise GameError(str(exc)) from None
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
            what = f"a game of {self.rules(other.game).title}" if other else "a game"
            raise GameError(
                f"This channel already has {what}. Finish or `/game cancel` it first, "
                "or create yours in a thread (`thread: True`)."
            ) from None

    async def join(self, game_id: int, seat: Seat) -> GameRow:
        async with self.lock(game_id):
            row = await self.load(game_id)
            if row.status != "lobby":
                raise GameError("This game has already started; you can watch it here.")
            if seat.id in row.player_ids:
                raise GameError("You are already seated in this game.")
            rules = self.rules(row.game)
            if len(row.seats) >= rules.player_counts[-1]:
                raise GameError(f"The table is full ({rules.player_counts[-1]} players).")
            return await self.storage.update_lobby(game_id, seats=(*row.seats, seat))

    async def leave(self, game_id: int, player: str) -> GameRow:
        async with self.lock(game_id):
            row = await self.load(game_id)
            if row.status != "lobby":
                raise GameError("The game has started: you can't leave it now. The creator can `/game cancel` it.")
            if player not in row.player_ids:
                raise GameError("You are not seated in this game.")
            if player == row.creator_id:
                raise GameError("You created this game: use Cancel to call it off.")
            return await self.storage.update_lobby(game_id, seats=[s for s in row.seats if s.id != player])

    @staticmethod
    def _creator_in_lobby(row: GameRow, player: str, started: str, to_do: str) -> None:
        """Lobby changes only the creator may make: GameError `started` after the start, or naming the creator."""
        if row.status != "lobby":
            raise GameError(started)
        if player != row.creator_id:
            raise GameError(f"Only the creator ({row.seat_name(row.creator_id)}) can {to_do}.")

    async def add_ai(self, game_id: int, player: str, level: str, count: int = 1) -> tuple[GameRow, list[Seat]]:
        """Seat `count` AI players of `level` (creator only, in the lobby). Returns the lobby and the new seats."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(row, player, "AI players can only be added before the game starts.",
                                   "add AI players")
            if level not in ai.LEVELS:
                raise GameError(f"There is no AI level `{level}`. Levels: {', '.join(ai.LEVELS)}.")
            if not ai_available(row.game, row.options):
                raise GameError(f"There is no AI player for {self.rules(row.game).title} yet.")
            hi = self.rules(row.game).player_counts[-1]
            if count < 1:
                raise GameError("Add at least one AI player.")
            if len(row.seats) + count > hi:
                free = hi - len(row.seats)
                raise GameError(f"The table is full ({hi} players)." if free <= 0 else
                                f"Only {free} seat{'s' if free != 1 else ''} left (at most {hi} players).")
            seats = list(row.seats)
            added = []
            for _ in range(count):
                pid = ai.next_ai_player_id(level, [s.id for s in seats])
                added.append(Seat(pid, ai.display_name(pid)))
                seats.append(added[-1])
            return await self.storage.update_lobby(game_id, seats=seats), added

    async def remove_ai(self, game_id: int, player: str, seat_id: str | None = None) -> tuple[GameRow, Seat]:
        """Take an AI seat away (creator only, in the lobby): `seat_id`, or the last AI seat added."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(row, player, "The game has started: its AI players stay until the end.",
                                   "remove AI players")
            bots = [s for s in row.seats if is_ai(s.id)]
            if not bots:
                raise GameError("There is no AI player in this game.")
            if seat_id is None:
                gone = bots[-1]
            else:
                gone = next((s for s in bots if s.id == seat_id or s.name.lower() == seat_id.strip().lower()), None)
                if gone is None:
                    names = ", ".join(s.name for s in bots)
                    raise GameError(f"There is no AI player `{seat_id}` here. AI players: {names}.")
            seats = [s for s in row.seats if s.id != gone.id]
            return await self.storage.update_lobby(game_id, seats=seats), gone

    async def set_options(self, game_id: int, player: str, options: Mapping[str, Any]) -> GameRow:
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(row, player, "Options can only be changed before the game starts.",
                                   "change its options")
            try:
                merged = self.rules(row.game).normalise_options({**row.options, **options})
            except ValueError as exc:
                raise GameError(str(exc)) from None
            return await self.storage.update_lobby(game_id, options=merged)

    async def start(self, game_id: int, player: str) -> tuple[GameRow, Any]:
        """Deal the game (seats in joining order). Only the creator may start."""
        async with self.lock(game_id):
            row = await self.load(game_id)
            self._creator_in_lobby(row, player, "This game has already started.", "start the game")
            rules = self.rules(row.game)
            lo = rules.player_counts[0]
            if all(is_ai(s.id) for s in row.seats):  # cannot happen from the lobby (the creator keeps a seat)
                raise GameError("A game needs at least one human player.")
            if len(row.seats) < lo:
                need = lo - len(row.seats)
                raise GameError(
                    f"{rules.title} needs at least {lo} players: waiting for {need} more to join."
                )
            try:
                state = rules.new_game(list(row.player_ids), row.options, row.seed)
            except ValueError as exc:
                raise GameError(str(exc)) from None
            try:
                row = await self.storage.start_game(game_id, seats=row.seats, state=rules.to_json(state))
            except StaleVersion:
                raise GameError("This game has already started.") from None
            self._remember(self._states, (row.id, row.version), state, self._state_cache_size)
            return row, state

    async def cancel(self, game_id: int, player: str, *, can_manage: bool) -> GameRow:
        async with self.lock(game_id):
            row = await self.load(game_id)
            if row.status not in ("lobby", "active"):
                raise GameError("This game is already over.")
            if player != row.creator_id and not can_manage:
                raise GameError(
                    "Only the creator of the game or someone with the Manage Channels permission can cancel it."
                )
            await self.storage.cancel_game(game_id)
            return await self.load(game_id)

    # -- playing -----------------------------------------------------------------------------------------

    def check_player(self, row: GameRow, player: str) -> Any:
        """The state, if `player` may act in this game now; else a GameError saying why."""
        state = self.check_seated(row, player)
        movers = self.rules(row.game).to_move(state)
        if player not in movers:
            waiting = ", ".join(row.seat_name(p) for p in movers) or "nobody"
            raise GameError(f"It's not your turn: waiting for {waiting}.")
        return state

    def out_of_turn(self, row: GameRow, state: Any | None = None) -> tuple[str, ...]:
        """Players who are in to_move only to act out of turn (the vizier claimants of Alhambra's Vizier's
        Favour, V4/V12), not the player whose turn it is. Empty for games without such a window."""
        if row.status != "active" and state is None:
            return ()
        rules = self.rules(row.game)
        claimants = getattr(rules, "vizier_claimants", None)
        if claimants is None:
            return ()
        state = self.state_of(row) if state is None else state
        movers = rules.to_move(state)
        side = set(claimants(state))
        return tuple(p for p in movers[1:] if p in side)

    def free_actions(self, row: GameRow, player: str) -> list[Any]:
        """Actions `player` may take at any time, whoever is to move (Alhambra's bonus cards, V62/V66)."""
        if row.status != "active" or player not in row.player_ids:
            return []
        listed = getattr(self.rules(row.game), "free_actions", None)
        return list(listed(self.state_of(row), player)) if listed is not None else []

    def is_free(self, game: str, action: Any) -> bool:
        check = getattr(self.rules(game), "is_free_action", None)
        return bool(check is not None and check(action))

    @staticmethod
    def is_private(game: str, action: Any) -> bool:
        """True for an action nobody else may learn about (see PRIVATE_KINDS)."""
        return getattr(action, "kind", None) in PRIVATE_KINDS.get(game, ())

    def position(self, row: GameRow, actions: Sequence[Any]) -> str:
        """What a move panel (or a /move suggestion) was built on, as a short token for its custom_ids: the
        number of turn actions so far and a fingerprint of the listed actions, e.g. "12.1x3k9f".

        A click is served only if the token is the same now: any turn action since makes the panel stale (even
        one that leaves the list alike), and an index into `actions` always means the action it meant when the
        panel was drawn. A free action (a bonus card, V62/V66) does not count as a turn and, with our engines,
        changes nobody's turn actions, so it leaves every open panel valid; should an engine's free action ever
        change someone's list, the fingerprint makes that panel stale rather than wrong.
        """
        return f"{row.turns}.{self.fingerprint(row.game, actions)}"

    def fingerprint(self, game: str, actions: Sequence[Any]) -> str:
        """A short digest of a list of actions (their JSON, so it is the same after a restart)."""
        rules = self.rules(game)
        data = json.dumps([rules.action_to_json(a) for a in actions], sort_keys=True, separators=(",", ":"))
        return _base36(zlib.crc32(data.encode()))

    def check_seated(self, row: GameRow, player: str) -> Any:
        """The state, if `player` is seated in this running game (free actions need no turn); else a GameError
        saying why."""
        if row.status == "lobby":
            raise GameError("This game hasn't started yet.")
        if row.status != "active":
            raise GameError("This game is over: no more moves.")
        if player not in row.player_ids:
            raise GameError("You are not playing in this game; you can watch it with the Board button.")
        return self.state_of(row)

    def legal_actions(self, row: GameRow, player: str) -> list[Any]:
        """Every legal action for `player` now (empty if they may not act)."""
        if row.status != "active" or player not in row.player_ids:
            return []
        return self.rules(row.game).legal_actions(self.state_of(row), player)

    async def act(
        self,
        game_id: int,
        player: str,
        action: Any,
        *,
        expected_version: int | None = None,
        expected_turns: int | None = None,
        announce: Callable[[MoveResult], Awaitable[None]] | None = None,
    ) -> MoveResult:
        """Apply `action` for `player`: checked by the rules, stored in one transaction, then announced.

        `expected_version` is the move number the action was chosen at; if any move (free actions included) was
        stored since, StaleMove and nothing changes. `expected_turns` is the weaker check of the move panels:
        only a turn action since makes it stale, not someone's free action (V62/V66); the action itself is
        checked against the newest state either way. The transaction checks the version it loaded here, so two
        racing submissions never both apply. IllegalAction propagates with the engine's message.
        `announce` (the public post) runs while the game's lock is still held, so posts appear in move order
        even when two players act at nearly the same moment; a failing announcement never undoes the move.
        """
        async with self.lock(game_id):
            row = await self.load(game_id)
            moved = ((expected_version is not None and row.version != expected_version)
                     or (expected_turns is not None and row.turns != expected_turns))
            if moved and row.status == "active":
                raise StaleMove("The game has moved on since you chose that move (someone already played). "
                                "Nothing was changed; press **Play my turn** for your current choices.")
            free = self.is_free(row.game, action)  # a bonus card may be played by its holder at any time (V62)
            state = self.check_seated(row, player) if free else self.check_player(row, player)
            rules = self.rules(row.game)
            new = rules.apply(state, player, action)  # IllegalAction: nothing was stored
            before_side = self.out_of_turn(row, state)  # out-of-turn players were never pinged: not "before"
            finished = rules.is_over(new)
            try:
                row = await self.storage.commit_move(
                    game_id,
                    expected_version=row.version,
                    player=player,
                    action=rules.action_to_json(action),
                    state=rules.to_json(new),
                    finished=finished,
                    free=free,
                    now=time.time(),
                )
            except StaleVersion:
                raise StaleMove("Someone else moved first; nothing was changed. Have another look.") from None
            self._remember(self._states, (row.id, row.version), new, self._state_cache_size)
            # the engines' "move" entries repeat the action (for the images' last-move mark): we print action_text
            fresh = [e for e in new.log[len(state.log):] if e.kind != MOVE_EVENT]
            result = MoveResult(
                row=row,
                player=player,
                action_text=rules.describe(action),
                events=tuple((e.player, e.text) for e in fresh if e.private_to is None),
                private_events=tuple(e.text for e in fresh if e.private_to == player),
                to_move=tuple(rules.to_move(new)),
                before=tuple(p for p in rules.to_move(state) if p not in before_side),
                finished=finished,
                scores=rules.scores(new),
                winners=tuple(rules.winners(new)) if finished else (),
                image=await self.public_image(row, new),
                side=self.out_of_turn(row, new) if not finished else (),
                free=free,
            )
            if announce is not None:
                try:
                    await announce(result)
                except Exception:
                    log.exception("announcing move %s of game %s failed", row.version, row.id)
            self.changed(game_id)  # e.g. an AI seat is to move now: it starts thinking (it waits for this lock)
            return result

    # -- reminders ---------------------------------------------------------------------------------------

    def to_move(self, row: GameRow) -> list[str]:
        if row.status != "active":
            return []
        return self.rules(row.game).to_move(self.state_of(row))

    async def nudge(self, game_id: int, player: str, *, min_gap: float = 3600, now: float | None = None) -> GameRow:
        """Allow a nudge at most once per `min_gap` seconds per game (and not at your own turn)."""
        now = time.time() if now is None else now
        async with self.lock(game_id):
            row = await self.load(game_id)
            if row.status != "active":
                raise GameError("Only a running game can be nudged.")
            humans = [p for p in self.to_move(row) if not is_ai(p)]
            if not humans:  # AI seats play by themselves; nudging them would only ping nobody
                raise GameError("An AI player is to move: it plays by itself, in a moment.")
            if humans == [player]:
                raise GameError("It's your own turn!")
            last = row.nudged_at or 0
            if now - last < min_gap:
                wait = int((min_gap - (now - last)) // 60) + 1
                raise GameError(f"Give them a moment: you can nudge again in {wait} min.")
            await self.storage.mark_nudged(game_id, now)
            return row
