"""The storage interface: the records the bot reads and the methods every backend implements.

The cogs and the session service use only what is declared here, so SQLite (the embedded default) and
PostgreSQL implement the same methods and pass the same test suite. Guarantees the Discord layer relies on:

- one game in the lobby or running per channel (two racing `/game create` calls cannot both win);
- each move is ONE transaction: its move-log row, the new state and the announcement it owes the channel (a
  `Notice` in the outbox) are written together, and only if the game's `version` is still the one the move was
  chosen against (optimistic check), so a double click applies once and a crash never loses or silences a move;
- a notice is removed only once its post was sent (`clear_notices`), so after a crash every pending one is
  posted at start-up (`pending_notices`).
"""

from __future__ import annotations

import abc
import dataclasses
import json
import zlib
from collections.abc import Sequence
from typing import Any

from storage.results import Finish, Rater, Rating, RatingRow, Recent, ResultRow, Summary

OPEN_STATUSES = ("lobby", "active")
STATUSES = ("lobby", "active", "finished", "cancelled")


def pack_state(state_json: str) -> bytes:
    """A state as the backends store it: its JSON, deflated (the largest, a finished 6-player game of the biggest
    kind with every module: 14 KB -> 2.4 KB at level 6, in 0.16 ms; level 1 would save 0.06 ms and write 3.1 KB)."""
    return zlib.compress(state_json.encode(), 6)


def unpack_state(data: bytes | str | None) -> str | None:
    """The JSON text of a stored state (rows written before states were deflated hold the text itself)."""
    if data is None or isinstance(data, str):
        return data
    raw = bytes(data)
    return zlib.decompress(raw).decode() if raw[:1] == b"\x78" else raw.decode()


MAX_PACKED = 2**63 - 1  # a 64-bit signed integer: every Discord id (19 digits since about 2022) fits


def pack_player(player: str) -> int | str:
    """A player id as the move log stores it: a Discord id as an integer (8 bytes instead of 19), any other id
    (and digits that would not read back the same: a leading zero, or beyond 64 bits) as text. Rows written
    before 19-digit ids were packed hold them as text: readers match both (`player_keys`)."""
    if player.isascii() and player.isdigit() and (n := int(player)) <= MAX_PACKED and str(n) == player:
        return n
    return player


def player_keys(player: str) -> tuple[int | str, str]:
    """The two forms a player id may have in the move log: packed (`pack_player`) and as text (older rows)."""
    return pack_player(player), player


def _archived_player(player: str) -> int | str:
    """A player id in an archived move log: a Discord id as a JSON number, any other id (and digits that would
    not read back the same, e.g. with a leading zero) as text."""
    return int(player) if player.isascii() and player.isdigit() and str(int(player)) == player else player


def pack_moves(moves: Sequence[MoveRow]) -> bytes:
    """A finished (or cancelled) game's move log as the backends archive it in one row: a JSON list of
    [move_number, player, action, created_at, standin (0/1)] (+ origin, only where a move still has one),
    deflated at level 9. The longest games (6 players, every module, see bench/capacity.py): ~420 moves, ~39 KB of JSON -> ~7.5 KB
    (mostly the timestamps, kept exact), in ~1 ms once per game; read back in ~0.7 ms (`unpack_moves` gives
    exactly the same MoveRows)."""
    rows: list[list[Any]] = []
    for m in moves:
        row: list[Any] = [m.move_number, _archived_player(m.player), m.action, m.created_at, int(m.standin)]
        if m.origin is not None:
            row.append(m.origin)
        rows.append(row)
    return zlib.compress(json.dumps(rows, separators=(",", ":")).encode(), 9)


def unpack_moves(game_id: int, data: bytes, *, since: int = 0) -> list[MoveRow]:
    """The MoveRows of an archived move log (`pack_moves`) after move number `since`, oldest first."""
    rows = json.loads(zlib.decompress(bytes(data)))
    return [
        MoveRow(game_id, r[0], str(r[1]), r[2], float(r[3]), r[5] if len(r) > 5 else None, bool(r[4]))
        for r in rows
        if r[0] > since
    ]


def final_log(moves: Sequence[MoveRow]) -> list[MoveRow]:
    """A finished game's move log as it is archived: it takes no more clicks, so only the final move keeps its
    origin (a retried click on the final panel is still recognised as played)."""
    last = moves[-1].move_number if moves else 0
    return [m if m.origin is None or m.move_number == last else dataclasses.replace(m, origin=None) for m in moves]


class StorageError(Exception):
    """Base class of the errors the storage reports to its callers."""


class ChannelBusy(StorageError):
    """The channel already has a game in the lobby or running."""


class StaleVersion(StorageError):
    """The game changed since the move was chosen (someone else moved first), or it is no longer running."""


@dataclasses.dataclass(frozen=True, slots=True)
class Seat:
    """A seat at the table: the player id (a Discord user id as text, or an AI id) and the name to show."""

    id: str
    name: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameRow:
    """One stored game. `state_json` is the engine's JSON as stored (None while in the lobby; parsed only when
    needed: `state`); `version` counts every stored move, `turns` only the turn actions (not free actions, which
    leave everyone's move panel valid)."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    seats: tuple[Seat, ...]
    state_json: str | None
    version: int
    creator_id: str
    lobby_message_id: int | None
    reminder_hours: float
    created_at: float
    updated_at: float
    turn_started_at: float | None
    reminded_at: float | None
    nudged_at: float | None
    turns: int = 0
    # the table's own settings and live arrangements (deadline, stand-ins, a pending undo, the last post...):
    # plain JSON the Discord layer owns, changed only by compare-and-set (`update_table`)
    table: dict[str, Any] = dataclasses.field(default_factory=dict)
    deadline_at: float | None = None  # when the player to move runs out of time (or the table's decision is due)
    last_post_id: int | None = None  # the game's newest public post (for jump links)
    # what the background passes read, derived by the bot from the game as it goes (`Due`): when the player to
    # move is next reminded (None: not before the next turn), and whether an AI seat may have a decision to make
    remind_at: float | None = None
    ai_due: bool = False

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.seats)

    @property
    def state(self) -> dict[str, Any] | None:
        """The engine's JSON, parsed (a new dict each time: callers cache the engine state instead)."""
        return json.loads(self.state_json) if self.state_json is not None else None

    def seat_name(self, player: str) -> str:
        for s in self.seats:
            if s.id == player:
                return s.name
        return player


@dataclasses.dataclass(frozen=True, slots=True)
class MoveRow:
    """One entry of a game's append-only move log. `origin` names the panel (or typed suggestion) the move was
    confirmed from, so that a retried or double click on it is recognised as the same move."""

    game_id: int
    move_number: int
    player: str
    action: dict[str, Any]
    created_at: float
    origin: str | None = None
    standin: bool = False  # an AI stand-in made this move for `player` (records: a seat mostly stood in for)


@dataclasses.dataclass(frozen=True, slots=True)
class Notice:
    """An announcement the channel is owed (the outbox): written in the transaction of the move (or start) it
    announces, removed once posted. `version` is the game's version after that move; `payload` says what to
    post (the Discord layer's own JSON: who acted, what, who is to move)."""

    id: int
    game_id: int
    version: int
    kind: str
    payload: dict[str, Any]
    created_at: float


@dataclasses.dataclass(frozen=True, slots=True)
class Shards:
    """The shards a process owns: its background work touches only games of guilds in them (Discord's rule:
    a guild is on shard `(guild_id >> 22) % count`)."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def owns(self, guild_id: int | None) -> bool:
        return guild_id is None or (guild_id >> 22) % self.count in self.ids


ALL_SHARDS = Shards()


@dataclasses.dataclass(frozen=True, slots=True)
class Due:
    """What a committed move tells the background passes: when the player to move should next be reminded
    (None: never, e.g. an AI is to move) and whether an AI seat has something to decide."""

    remind_at: float | None = None
    ai: bool = False
    deadline_at: float | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    """A player's own settings, in every game and server: away (until when, and whether the AI may play their
    turns meanwhile), whether Confirm is skipped for moves that reveal nothing, their language; their quiet hours
    ("22:00-08:00", in their IANA `timezone`: no pings, and their clock waits) and their DM notices ("off",
    "turn", "deadline"; with what the budget of DMs counts), stored together as the row's `prefs` JSON."""

    id: str
    away_until: float | None = None
    away_ai: bool = False
    skip_confirm: bool = False
    locale: str | None = None
    quiet: str | None = None
    timezone: str | None = None
    dm: str = "off"
    dm_sent: tuple[float, ...] = ()  # when the latest DM notices went out (the per-user budget)
    dm_turns: tuple[str, ...] = ()  # the turns ("game:turn") the latest DM notices were for (one per turn)

    def away(self, now: float) -> bool:
        return self.away_until is not None and self.away_until > now


@dataclasses.dataclass(frozen=True, slots=True)
class Guild:
    """A server's own settings: the language of its public posts (None: the server's Discord locale); the
    looking-for-game queue (cogs/lfg.py): the channel whose threads open its matched tables (None: no queue in
    this server) and whether its players also match players of other servers (the shared queue)."""

    id: int
    language: str | None = None
    lfg_channel: int | None = None
    lfg_shared: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Season:
    """One of a server's rating seasons (cogs/seasons.py): number 1, 2, ... in the server; `reset` if the
    ratings were cleared when it started (else carried over). `podium` once it ended: per kind of game, the first
    places of its board as it stood then ([player, name, shown rating, rated games], best first)."""

    guild_id: int
    number: int
    name: str
    started_at: float
    ended_at: float | None = None
    reset: bool = False
    podium: dict[str, list[list[Any]]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class QueueEntry:
    """A player waiting in a server's looking-for-game queue for one kind of game, with the filters they asked
    for (`players`: the table size, None any; `speed`: "fast" | "normal" | "slow" or None; `band`: the most
    their opponents' ratings may differ from `rating`, None any) and what the others' filters read of them
    (`rating`: their shown rating in their server, `pace`: their speed from their average turn time, None while
    they have no turns on record). `shared`: the server is in the cross-server queue. `ignored`: matches they let
    time out in a row."""

    guild_id: int
    player: str
    game: str
    name: str
    since: float
    shared: bool = False
    players: int | None = None
    speed: str | None = None
    band: float | None = None
    rating: float = 0.0
    pace: str | None = None
    ignored: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class Match:
    """Players the queue matched, waiting for their Accept (cogs/lfg.py). `status` "open" (until `expires_at`),
    "started" or "expired"; `data` is the Discord layer's JSON (the members' queue entries, who accepted, the
    posts, the table's channel), changed only by compare-and-set (`update_match`). It belongs to the shard of
    `guild_id`, the server whose channel opens the table."""

    id: int
    guild_id: int
    game: str
    status: str
    created_at: float
    expires_at: float
    data: dict[str, Any] = dataclasses.field(default_factory=dict)


NOT_DUE = Due()

TOURNAMENT_STATUSES = ("signup", "running", "finished", "cancelled")


@dataclasses.dataclass(frozen=True, slots=True)
class TournamentRow:
    """One stored tournament of a server: its `status` (signup, running, finished, cancelled), its `data` (the
    Discord layer's own JSON: the settings, the players, each round's tables and results; cogs/tournaments.py),
    changed only by compare-and-set on `version`; `due_at`: when the background pass should look at it next
    (the round's time limit, or at once while a round is being set up; None when nothing is due)."""

    id: int
    guild_id: int
    channel_id: int
    status: str
    data: dict[str, Any]
    version: int
    due_at: float | None
    created_at: float
    updated_at: float


@dataclasses.dataclass(frozen=True, slots=True)
class Review:
    """The coach's review of a finished game (cogs/_coach.py): "running" until every move of the log is judged,
    then "done". `entries` are the judged moves so far, in order (plain JSON, ai/coach.py `judge`)."""

    game_id: int
    status: str = "running"
    entries: tuple[dict[str, Any], ...] = ()
    updated_at: float = 0.0

    @property
    def done(self) -> bool:
        return self.status == "done"


class Storage(abc.ABC):
    """Games, their move logs and their pending announcements. Open a backend with `storage.open_storage`."""

    # True for a database several bot processes share (their background work then takes per-game leases)
    shared: bool = False
    # the arithmetic of a game's end (records.figures.RATER), given to `open`: a storage opened without it stores
    # every move but refuses a final move's `finish` and a rebuild (StorageError)
    rater: Rater | None = None

    def _rater(self) -> Rater:
        if self.rater is None:
            raise StorageError("this storage was opened without a rater (records.figures.RATER): it cannot rate games")
        return self.rater

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    # -- reads -------------------------------------------------------------------------------------------
    # Every query is indexed (tests/storage checks each plan): none costs time in proportion to the number of
    # stored games.

    @abc.abstractmethod
    async def load_game(self, game_id: int) -> GameRow | None:
        """The game with this id; None if there is none (ids out of range included)."""

    @abc.abstractmethod
    async def game_in_channel(self, channel_id: int) -> GameRow | None:
        """The game in the lobby or running in this channel, if any."""

    @abc.abstractmethod
    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The most recent game of this channel whatever its status (for /game status after the end)."""

    @abc.abstractmethod
    async def games_in_guild(self, guild_id: int, *, limit: int = 30) -> list[GameRow]:
        """The guild's games in the lobby or running, oldest first (at most `limit`)."""

    @abc.abstractmethod
    async def games_of(self, player: str, *, limit: int = 30) -> list[GameRow]:
        """The games in the lobby or running in which `player` is seated, in any guild (at most `limit`)."""

    @abc.abstractmethod
    async def moves(self, game_id: int, *, since: int = 0) -> list[MoveRow]:
        """The game's move log after move number `since`, oldest first (of a finished or cancelled game, read
        from its archive: one row, `pack_moves`; games that ended before archiving was kept still have rows)."""

    @abc.abstractmethod
    async def move_by_origin(self, game_id: int, player: str, origin: str) -> MoveRow | None:
        """The move `player` confirmed from `origin` (a panel position and choice), if it was stored."""

    @abc.abstractmethod
    async def pending_notices(self, game_id: int) -> list[Notice]:
        """The game's announcements not yet posted, oldest first."""

    @abc.abstractmethod
    async def games_with_notices(
        self, *, older_than: float | None = None, shards: Shards = ALL_SHARDS, limit: int = 100
    ) -> list[int]:
        """Ids of games owing an announcement (with `older_than`: one written before that time), oldest first."""

    @abc.abstractmethod
    async def ai_due(self, *, shards: Shards = ALL_SHARDS, after: int = 0, limit: int = 100) -> list[int]:
        """Ids (> `after`, ascending) of running games where an AI seat has something to decide."""

    # -- writes ------------------------------------------------------------------------------------------

    @abc.abstractmethod
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        options: dict[str, Any],
        seed: int,
        creator: Seat,
        now: float | None = None,
        reminder_hours: float = 24,
    ) -> GameRow:
        """A new game in the lobby with its creator seated. ChannelBusy if the channel has an open game."""

    @abc.abstractmethod
    async def update_lobby(
        self,
        game_id: int,
        *,
        seats: Sequence[Seat] | None = None,
        options: dict[str, Any] | None = None,
        lobby_message_id: int | None = None,
        table: dict[str, Any] | None = None,
        now: float | None = None,
    ) -> GameRow:
        """Change the seats, options, lobby message or table settings of a game still in the lobby. StaleVersion
        otherwise."""

    @abc.abstractmethod
    async def start_game(
        self,
        game_id: int,
        *,
        seats: Sequence[Seat],
        state_json: str,
        due: Due = NOT_DUE,
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow:
        """Lobby -> running with the initial state (version 0), the first turn's `due` times (reminder, AI flag,
        deadline: as every later turn's) and, in the same transaction, the `notice` (kind, payload) announcing the
        start. StaleVersion if it was not in the lobby."""

    @abc.abstractmethod
    async def commit_move(
        self,
        row: GameRow,
        *,
        player: str,
        action: dict[str, Any],
        state_json: str,
        finished: bool,
        free: bool = False,
        origin: str | None = None,
        notice: tuple[str, dict[str, Any]] | None = None,
        due: Due = NOT_DUE,
        table: dict[str, Any] | None = None,
        now: float | None = None,
        standin: bool = False,
        finish: Finish | None = None,
    ) -> GameRow:
        """Append the move, store the new state and the `notice` (kind, payload) it owes the channel in one
        transaction, only if the game is still running at `row.version`; the move gets number row.version + 1.
        StaleVersion otherwise, nothing written. Returns the row as stored (built, not read back).

        A `free` action (not a turn action) counts as a move but not as a turn: `turns`, the idle clock of the
        player to move (`turn_started_at`), their next reminder and their deadline stay as they were. `table`
        (if given) replaces the table's arrangements (a stand-in whose turn is over leaves). `standin`: an AI
        made the move for `player`.

        The final move (`finished`) comes with the game's `finish`: in the same transaction its results are
        stored (`records.figures.settle`: places, turn times and stand-in shares from the move log) and the
        ratings of its server and kind updated from the rows as they are then (serialised per server and kind,
        so two games ending at once both count). A crash leaves a game unfinished and unrated, or finished and
        rated once: never in between. In that transaction too, the game's move log is archived: its rows are
        packed into one (`pack_moves`, only the final move keeping its origin) and deleted; every read gives the
        same MoveRows as before."""

    @abc.abstractmethod
    async def clear_notices(self, ids: Sequence[int], *, post: tuple[int, int] | None = None) -> None:
        """Remove announcements that were posted; `post` = (game id, message id) of the newest post of that game
        (remembered as `last_post_id`, for jump links)."""

    @abc.abstractmethod
    async def claim_reminders(self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100) -> list[int]:
        """Running games whose reminder is due: each is claimed in one transaction (its reminder time cleared,
        `reminded_at` set, a "reminder" notice written), so that a reminder goes out once even when two
        processes look at the same time. Returns their ids."""

    @abc.abstractmethod
    async def set_ai_due(self, game_id: int, version: int, due: bool) -> None:
        """Correct the AI flag of a game still at `version` (the AI found nothing to decide)."""

    @abc.abstractmethod
    async def lease(self, game_id: int, owner: str, seconds: float, now: float | None = None) -> bool:
        """Take (or renew) the game's background lease for `seconds`: False if another owner holds it. Two
        processes that overlap (a redeploy) never post the same game's notices at once."""

    @abc.abstractmethod
    async def release(self, game_id: int, owner: str) -> None: ...

    @abc.abstractmethod
    async def claim_share(
        self, game_id: int, channel_id: int, lang: str, *, now: float | None = None, stale_after: float = 900.0
    ) -> tuple[bool, int | None]:
        """Claim the post of game `game_id`'s animation in `channel_id` (in `lang`): first claim wins. (True,
        None) to the claimant (also when an earlier claimant posted nothing for `stale_after` seconds: it gave
        up or died); else (False, the post's message id), or (False, None) while the claimant is at work."""

    @abc.abstractmethod
    async def share_posted(self, game_id: int, channel_id: int, lang: str, message_id: int | None) -> None:
        """The claimed animation was posted as `message_id`; None: the claimant gives up (another may claim)."""

    @abc.abstractmethod
    async def move_reminder(self, game_id: int, turns: int, remind_at: float) -> bool:
        """Move the reminder still scheduled for turn number `turns` of a running game to `remind_at` (a player set
        quiet hours it fell in); False if there is none (it went out, or the game moved on)."""

    @abc.abstractmethod
    async def board_message(self, game_id: int) -> int | None:
        """The message id of game `game_id`'s living board (a compact table's one post, edited after every move:
        cogs/_compact.py); None before it was first posted."""

    @abc.abstractmethod
    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember (or, None: forget) the message id of the game's living board."""

    @abc.abstractmethod
    async def cancel_game(self, game_id: int, now: float | None = None) -> bool:
        """Cancel a game in the lobby or running (its move log archived in the same transaction, as a finished
        game's); False if it was already over."""

    @abc.abstractmethod
    async def mark_nudged(self, game_id: int, now: float | None = None) -> None: ...

    @abc.abstractmethod
    async def review(self, game_id: int) -> Review | None:
        """The coach's review of game `game_id` (finished, or under way); None if nobody asked for one yet."""

    @abc.abstractmethod
    async def begin_review(self, game_id: int, now: float | None = None) -> bool:
        """Start the review of a finished game (an empty one, "running"): True if this call started it, False if
        it exists already (two asking at once start it once)."""

    @abc.abstractmethod
    async def save_review(self, review: Review, now: float | None = None) -> None:
        """Store a review's progress (its entries so far, and "done" once every move is judged)."""

    @abc.abstractmethod
    async def reviews_running(self, *, after: int = 0, limit: int = 100) -> list[int]:
        """The games whose review is under way (an index of the running ones only), by id after `after`: the
        bot's start-up resumes them."""

    @abc.abstractmethod
    async def backup(self, path: str) -> None:
        """A consistent copy of the whole database at `path`, taken while the bot runs."""

    @abc.abstractmethod
    async def update_table(
        self,
        game_id: int,
        *,
        expect: dict[str, Any],
        table: dict[str, Any],
        deadline_at: float | None,
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow | None:
        """Replace the table's arrangements and its deadline, only if they are still `expect` (compare-and-set:
        of two clicks on one decision, the first wins), with the notice it owes in the same transaction. The
        stored row, or None if the table changed meanwhile (or the game is not running)."""

    @abc.abstractmethod
    async def deadlines_due(self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100) -> list[GameRow]:
        """Running games whose deadline has passed (of these shards), the earliest first."""

    @abc.abstractmethod
    async def undo(
        self,
        row: GameRow,
        *,
        keep: int,
        state_json: str,
        turns: int,
        by: str,
        table: dict[str, Any],
        due: Due = NOT_DUE,
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow:
        """Take back every move after number `keep` in one transaction, if the game is still at `row.version`
        (StaleVersion otherwise): they move to the audit table (`undone_moves`, with who undid them and when),
        the state becomes `state_json` (the replay of the moves kept), with the notice announcing it."""

    @abc.abstractmethod
    async def undone_moves(self, game_id: int) -> list[MoveRow]:
        """The moves taken back in this game (the audit), oldest first."""

    @abc.abstractmethod
    async def last_move_of(self, game_id: int, player: str) -> int:
        """The number of `player`'s latest move in the game (0 if none)."""

    @abc.abstractmethod
    async def player(self, player_id: str) -> Player:
        """A player's settings (the defaults if they never set any)."""

    @abc.abstractmethod
    async def players(self, player_ids: Sequence[str]) -> dict[str, Player]:
        """The settings of several players at once."""

    @abc.abstractmethod
    async def set_player(self, player: Player) -> None:
        """Store a player's settings."""

    @abc.abstractmethod
    async def guild(self, guild_id: int) -> Guild:
        """A server's settings (the defaults if it never set any)."""

    @abc.abstractmethod
    async def set_guild(self, guild: Guild) -> None:
        """Store a server's settings."""

    # -- tournaments (cogs/tournaments.py) ------------------------------------------------------------------

    @abc.abstractmethod
    async def create_tournament(
        self, *, guild_id: int, channel_id: int, data: dict[str, Any], now: float | None = None
    ) -> TournamentRow:
        """A new tournament in sign-up (version 0, nothing due)."""

    @abc.abstractmethod
    async def load_tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament with this id; None if there is none (ids out of range included)."""

    @abc.abstractmethod
    async def update_tournament(
        self,
        row: TournamentRow,
        *,
        data: dict[str, Any],
        status: str,
        due_at: float | None,
        now: float | None = None,
    ) -> TournamentRow | None:
        """Replace the tournament's data, status and due time in one statement, only if it is still at
        `row.version` (compare-and-set: of two bots or two clicks, the first wins); the stored row (version + 1),
        or None if it changed meanwhile."""

    @abc.abstractmethod
    async def tournaments_due(
        self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100
    ) -> list[TournamentRow]:
        """Tournaments (of guilds on these shards) whose `due_at` has come, the earliest first."""

    # -- seasons, the looking-for-game queue, substitutes (issue #24) ---------------------------------------

    @abc.abstractmethod
    async def seasons(self, guild_id: int, *, before: int | None = None, limit: int = 10) -> list[Season]:
        """The server's seasons, newest first (the running one, if any, is the first, with `ended_at` None);
        `before`: only those numbered below it (paging the archive)."""

    @abc.abstractmethod
    async def start_season(self, guild_id: int, *, name: str, reset: bool, now: float | None = None) -> Season | None:
        """Open the server's next season, in one transaction: with `reset`, the server's ratings of every game
        are cleared (its board starts empty; the results stay); else they carry over. None if one is running."""

    @abc.abstractmethod
    async def end_season(
        self, guild_id: int, *, games: Sequence[str], places: int = 3, now: float | None = None
    ) -> Season | None:
        """Close the running season, in one transaction: its podium is the first `places` of each game's board
        among those rated since it began (`leaderboard(since=...)`). None if no season runs."""

    @abc.abstractmethod
    async def queue_put(self, entry: QueueEntry) -> None:
        """Add a player to a server's queue for a game (or replace their waiting entry there)."""

    @abc.abstractmethod
    async def queue_drop(self, guild_id: int, player: str, game: str | None = None) -> int:
        """Take a player out of a server's queue (for one game, or all); how many entries went."""

    @abc.abstractmethod
    async def queue_waiting(self, game: str, guild_id: int, *, shared: bool, limit: int = 50) -> list[QueueEntry]:
        """Who waits for `game`, the longest waiting first: the server's own queue and, if `shared`, every
        server's entries in the shared queue (each read through its index: `limit` of each at most)."""

    @abc.abstractmethod
    async def open_match(
        self, entries: Sequence[QueueEntry], *, guild_id: int, expires_at: float, data: dict[str, Any], now: float
    ) -> Match | None:
        """The matched players leave the queue and a match waits for them, in one transaction; None (nothing
        changed) if one of them is no longer waiting as `entries` has them (matched meanwhile, or gone)."""

    @abc.abstractmethod
    async def load_match(self, match_id: int) -> Match | None: ...

    @abc.abstractmethod
    async def update_match(
        self,
        match_id: int,
        *,
        expect: dict[str, Any],
        data: dict[str, Any],
        status: str = "open",
        requeue: Sequence[QueueEntry] = (),
    ) -> Match | None:
        """Replace an open match's data (and status), only if it is still `expect` and open (compare-and-set:
        of two clicks the first wins), putting `requeue` back in the queue in the same transaction. None if it
        changed meanwhile."""

    @abc.abstractmethod
    async def matches_due(self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100) -> list[Match]:
        """Open matches whose time to accept has run out (of these shards), the earliest first."""

    @abc.abstractmethod
    async def replace_seat(
        self,
        row: GameRow,
        *,
        seats: Sequence[Seat],
        state_json: str,
        table: dict[str, Any],
        notice: tuple[str, dict[str, Any]] | None = None,
        now: float | None = None,
    ) -> GameRow | None:
        """A running game's seat passes to another player (a substitute): its seats, state and table replaced
        with the notice in one transaction, only if the game is still at `row`'s version and table. None
        otherwise."""

    # -- results and ratings (records/) -------------------------------------------------------------------

    @abc.abstractmethod
    async def game_results(self, game_id: int) -> list[ResultRow]:
        """The stored results of a finished game, in seat order (empty: unfinished, cancelled, or finished
        before results were kept)."""

    @abc.abstractmethod
    async def leaderboard(
        self, guild_id: int, game: str, *, offset: int = 0, limit: int = 10, since: float = 0.0
    ) -> list[RatingRow]:
        """The server's ratings of `game`, best shown value (μ − 3σ) first (ties by player id); `since`: only
        those rated at or after it (a season's board: its players)."""

    @abc.abstractmethod
    async def leaderboard_size(self, guild_id: int, game: str, *, since: float = 0.0) -> int:
        """How many players the server's leaderboard of `game` holds (rated at or after `since`)."""

    @abc.abstractmethod
    async def standing(
        self, guild_id: int, game: str, player: str, *, since: float = 0.0
    ) -> tuple[int, RatingRow] | None:
        """A player's place on the leaderboard (1 + those shown strictly above, rated at or after `since`) and
        rating; None if unrated (or not since then)."""

    @abc.abstractmethod
    async def player_summary(self, guild_id: int, player: str, game: str | None = None) -> list[Summary]:
        """A player's totals over their finished games in the server, one per kind of game (or of `game`)."""

    @abc.abstractmethod
    async def player_recent(self, guild_id: int, player: str, game: str, *, limit: int = 500) -> list[Recent]:
        """A player's latest finished games of `game` in the server, newest first."""

    @abc.abstractmethod
    async def rating_history(
        self, guild_id: int, game: str, player: str, *, limit: int = 200
    ) -> list[tuple[float, Rating]]:
        """A player's rating after each of their latest rated games (when it finished, the rating), oldest
        first."""

    @abc.abstractmethod
    async def unrecorded_games(self, guild_id: int, *, after: int = 0, limit: int = 100) -> list[int]:
        """Ids (> `after`, ascending) of the server's finished games without stored results (finished before
        results were kept): `record_finish` fills them in."""

    @abc.abstractmethod
    async def record_finish(self, game_id: int, finish: Finish) -> bool:
        """Store the results of a finished game that has none (as `commit_move` would have, at the game's own
        finishing time, rated against the ratings as they are now; a rebuild then puts it in order). False if it
        has results already or is not finished."""

    @abc.abstractmethod
    async def rebuild_ratings(self, guild_id: int, game: str) -> int:
        """Rate every stored finished game of `game` in the server again from nothing (from the start of the
        latest season that reset the ratings, if any), in their stored order, and replace the server's ratings
        of `game` (and each result's before/after) with the outcome. Returns the number of games. Games finishing meanwhile are waited for or included, never lost."""

    @abc.abstractmethod
    async def all_ratings(self, *, after: tuple[int, str, str] | None = None, limit: int = 1000) -> list[RatingRow]:
        """Every rating row after the key (server, game, player), in key order (copying a database)."""

    @abc.abstractmethod
    async def import_records(self, results: Sequence[ResultRow], ratings: Sequence[RatingRow]) -> None:
        """Store results and rating rows exactly as another database holds them (copying a database)."""

    # -- for tools and tests -----------------------------------------------------------------------------

    @abc.abstractmethod
    async def all_game_ids(self, *, after: int = 0, limit: int = 1000) -> list[int]:
        """Every game id > `after`, ascending (copying and checking a whole database, in batches)."""

    @abc.abstractmethod
    async def table_rows(
        self, table: str, *, after: tuple[Any, ...] | None = None, limit: int = 1000
    ) -> list[dict[str, Any]]:
        """A page of one of the tables `storage._rows.TABLES` lists (seats, players' and servers' settings, moves
        taken back, shares, leases) in its key's order, after the row whose key is `after`, as plain values (the
        same from both backends). For `python -m storage copy`."""

    @abc.abstractmethod
    async def import_rows(self, table: str, rows: Sequence[dict[str, Any]]) -> None:
        """Rows of `table_rows` copied from another database, in one transaction."""

    @abc.abstractmethod
    async def import_game(self, row: GameRow, moves: Sequence[MoveRow], notices: Sequence[Notice]) -> None:
        """Store a game exactly as another database holds it (same id, state, moves and pending notices)."""

    @abc.abstractmethod
    async def query_plans(self) -> dict[str, str]:
        """The plan the database chose for each query this backend runs (tests: no full scan of a big table)."""

    # -- operations (ops/: health, metrics, identify coordination) -------------------------------------------

    @abc.abstractmethod
    async def outbox_stats(self) -> tuple[int, float | None]:
        """(notices waiting to be posted, the oldest one's `created_at` or None): one indexed query, for the
        health check and the metrics (the outbox stays small: its notices are posted within seconds)."""

    async def identify_slot(self, bucket: int, owner: str, window: float) -> float:
        """Take the gateway identify lease of rate-limit `bucket` for `window` seconds if it is free: 0.0 when
        taken (identify now), else the seconds until it frees. Processes sharing a database take turns through
        it; a backend used by one process only has nobody to take turns with (0.0)."""
        return 0.0
