"""Ratings per server and per game: openskill's Plackett–Luce model, for free-for-all games of 2–6 players with
ties. Pure: no discord, no I/O; storage calls `rate` inside the transaction that stores a game's final move, and
`replay` to rebuild a server's ratings from its stored results.

The rules, and the choices made where they leave room:

- **Places** come from the final scores, shared places as ties: a seat's place is 1 + the number of seats ahead
  of it, ordered by (winner, score). The engine's `winners` breaks a tie for first place where its rules do;
  equal scores otherwise share a place. A player who **abandoned** the game (left it while it ran: the table's
  `left` list) is placed last, behind every seat that stayed; several who left share the last place.
- **AI seats** are fixed-level opponents: each level has a constant rating (`AI_RATINGS`) that no game changes,
  so an AI is the same yardstick in every server and never appears on a leaderboard (it has no ratings row).
  The constants are calibrated on `bench/ai_arena.py` with openskill's own `predict_win`: normal is a new
  player's 25; normal beats easy 98 % of the time (easy = 12.5) and hard beats normal 72 % (hard = 28.5).
- A human seat **played by a stand-in for more than half of its moves** (`STANDIN_SHARE`) is not rated: for the
  others it counts as the stand-in's AI level (a fixed opponent, like an AI seat), since the AI mostly played it.
  A player who abandoned is rated (placed last) whatever the stand-in played afterwards.
- A **substitute** (a player who took a vacant seat over during the game: cogs/_substitute.py) is not rated for
  that game: for the others the seat counts as the stand-ins' AI level, as a seat mostly stood in for.
- A **cancelled** game is never rated (only a finished game reaches `rate`), nor a game outside a server.
- A rating is **shown** as its conservative value μ − 3σ (0 for a new player) and is **provisional** for a
  player's first `PROVISIONAL_GAMES` rated games (σ is still large: a few games move it a lot).

`replay(games)` applies `rate` to a server's games in their stored order, from nothing: the live updates and a
rebuild run the same arithmetic in the same order, so they give identical numbers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence

from openskill.models import PlackettLuce

# The rating as storage keeps it (μ, σ, games; shown as μ − 3σ; provisional for the first PROVISIONAL_GAMES):
# defined with the other stored records in storage/results.py, which never imports this package.
from storage.results import MU, SIGMA
from storage.results import NEW as NEW  # re-exported, with Rating and PROVISIONAL_GAMES
from storage.results import PROVISIONAL_GAMES as PROVISIONAL_GAMES  # re-exported: the policy is told above
from storage.results import Rating as Rating

STANDIN_SHARE = 0.5  # more than this share of a seat's moves made by a stand-in: the seat is not rated
STANDIN_LEVEL = "normal"  # the level stand-ins play at (cogs/_tempo.py AI_LEVEL)
AI_SIGMA = 1.0
AI_RATINGS: dict[str, tuple[float, float]] = {
    "easy": (12.5, AI_SIGMA),
    "normal": (25.0, AI_SIGMA),
    "hard": (28.5, AI_SIGMA),
}

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclasses.dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a finished game, as far as ratings care. `ai_level` is set for an AI seat; `moves` and
    `standin_moves` count the seat's stored moves and those a stand-in made for it."""

    player: str
    score: int
    winner: bool = False
    ai_level: str | None = None
    abandoned: bool = False
    moves: int = 0
    standin_moves: int = 0
    substitute: bool = False

    @property
    def standin_share(self) -> float:
        return self.standin_moves / self.moves if self.moves else 0.0

    @property
    def rated(self) -> bool:
        """Whether this seat's player gets a new rating from the game."""
        if self.ai_level is not None or self.substitute:
            return False
        return self.abandoned or self.standin_share <= STANDIN_SHARE

    @property
    def fixed(self) -> tuple[float, float] | None:
        """The constant (μ, σ) this seat plays at if it is not rated: its AI level, or the stand-in's."""
        if self.ai_level is not None:
            return AI_RATINGS.get(self.ai_level, AI_RATINGS[STANDIN_LEVEL])
        return None if self.rated else AI_RATINGS[STANDIN_LEVEL]


def places(seats: Sequence[SeatResult]) -> list[int]:
    """Each seat's place (1 = first; equal keys share a place): by (winner, score), those who abandoned last."""
    keys = [(False, False, 0) if s.abandoned else (True, s.winner, s.score) for s in seats]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def rate(seats: Sequence[SeatResult], current: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new ratings of the rated seats' players after this game (`current`: their ratings before; a player
    missing there is new). Empty if nobody is rated."""
    return rate_places(seats, places(seats), current)


def rate_places(seats: Sequence[SeatResult], where: Sequence[int], current: Mapping[str, Rating]) -> dict[str, Rating]:
    """`rate` with the seats' places given (as stored: a rebuild rates each game with the places it was rated
    with)."""
    if len(seats) < 2 or not any(s.rated for s in seats):
        return {}
    teams = []
    for s in seats:
        fixed = s.fixed
        mu, sigma = fixed if fixed is not None else _before(current, s.player)
        teams.append([MODEL.rating(mu=mu, sigma=sigma, name=s.player)])
    new = MODEL.rate(teams, ranks=[float(p) for p in where])
    out = {}
    for s, team in zip(seats, new, strict=True):
        if s.rated:
            games = current[s.player].games if s.player in current else 0
            out[s.player] = Rating(float(team[0].mu), float(team[0].sigma), games + 1)
    return out


def _before(current: Mapping[str, Rating], player: str) -> tuple[float, float]:
    r = current.get(player, NEW)
    return r.mu, r.sigma


def replay(games: Iterable[Sequence[SeatResult]]) -> tuple[dict[str, Rating], list[dict[str, tuple[Rating, Rating]]]]:
    """Every game of one server and game kind in order, from nothing: the final ratings, and per game each rated
    player's (before, after)."""
    ratings: dict[str, Rating] = {}
    changes: list[dict[str, tuple[Rating, Rating]]] = []
    for seats in games:
        new = rate(seats, ratings)
        changes.append({p: (ratings.get(p, NEW), r) for p, r in new.items()})
        ratings.update(new)
    return ratings, changes
