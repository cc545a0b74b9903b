"""What a finished game leaves, as storage keeps it: plain data, and the arithmetic storage is handed to settle it.

Storage sits below `records/` and never imports it. The layer above computes a game's end (`records.figures`:
`finish_of` turns the final state into a `Finish`) and hands it to the final move (`Storage.commit_move`) as
data; inside that move's transaction storage reads what only the database knows (the move log, the players'
current ratings) and runs the `Rater` it was opened with (`records.figures.RATER`): the results and ratings it
returns are stored in the same transaction. A rebuild of a server's ratings runs the same `Rater` over the
stored results. The types here are what records/ computes with and what the readers (/stats, leaderboards) get
back; `records.ratings` and `records.figures` re-export them under their old names.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

MU = 25.0  # openskill's defaults: a new player
SIGMA = 25.0 / 3
PROVISIONAL_GAMES = 5  # a player's first 5 rated games are marked provisional


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one server and game: the model's μ and σ, and how many rated games it counts."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> float:
        """The conservative value shown on leaderboards (and stored to order them by): μ − 3σ."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Rating()


@dataclasses.dataclass(frozen=True, slots=True)
class SeatFinish:
    """One seat at the end, from the final state: `figures` are the game's own numbers for that player (plain
    JSON: a number, or a list of numbers per round)."""

    player: str
    name: str
    score: int
    winner: bool = False
    ai_level: str | None = None
    abandoned: bool = False
    figures: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    substitute: bool = False  # took the seat over during the game (cogs/_substitute.py): never rated for it


@dataclasses.dataclass(frozen=True, slots=True)
class Finish:
    """A finished game's seats, in seat order (what the session hands to storage with the final move)."""

    seats: tuple[SeatFinish, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """What settling needs of one stored move: who made it, when, and whether a stand-in made it for them."""

    player: str
    at: float
    standin: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat's stored result: `before`/`after` are the player's ratings around this game (None: not rated)."""

    seat: int
    player: str
    name: str
    score: int
    place: int
    ai_level: str | None
    abandoned: bool
    moves: int
    standin_moves: int
    rated: bool
    before: Rating | None
    after: Rating | None
    turns: int
    turn_seconds: float
    turn_median: float | None
    figures: Mapping[str, Any]
    substitute: bool = False  # a substitute played the seat's end (not rated for this game)

    @property
    def change(self) -> float | None:
        """How much the shown rating moved (None if not rated)."""
        if self.before is None or self.after is None:
            return None
        return self.after.shown - self.before.shown


@dataclasses.dataclass(frozen=True, slots=True)
class Summary:
    """A player's totals over every finished game of one kind in a server (summed by the database)."""

    game: str
    games: int
    wins: int
    score_sum: float
    best: int
    turns: int
    turn_seconds: float


@dataclasses.dataclass(frozen=True, slots=True)
class Recent:
    """One of a player's latest games of a kind: what the medians and the game's own figures need."""

    score: int
    place: int
    turn_median: float | None
    figures: Mapping[str, Any]
    substitute: bool = False  # a substitute played the seat's end (not rated for this game)


@dataclasses.dataclass(frozen=True, slots=True)
class Rater:
    """The arithmetic of results and ratings, handed to storage when it is opened (`records.figures.RATER`):

    - `settle(finish, moves, current, rated=...)`: each seat's `SeatRecord` of a finished game, from its move log
      and the rated players' `current` ratings (read in the final move's transaction);
    - `rebuild(games)`: a server's stored games of one kind (each a list of records, in rating order) rated again
      from nothing: (the final ratings, each game's records with their new before/after).
    """

    settle: Callable[..., list[SeatRecord]]
    rebuild: Callable[[Sequence[Sequence[SeatRecord]]], tuple[dict[str, Rating], list[list[SeatRecord]]]]


@dataclasses.dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat's stored result of a finished game, with where it stands in its server's rating order: the
    games of one server and kind are rated in (`finished_at`, `seq`) order, live and in a rebuild alike.
    `guild_id` 0: a game outside a server (stored, never rated)."""

    game_id: int
    guild_id: int
    game: str
    finished_at: float
    seq: int
    record: SeatRecord


@dataclasses.dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's current rating in one server and game (humans only: AI levels are constants), with the name
    they last played under."""

    guild_id: int
    game: str
    player: str
    name: str
    rating: Rating
    updated_at: float
