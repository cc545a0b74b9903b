"""Nim on the engine contract (tests only): heaps of counters; the player to move takes one to three counters
from one heap; whoever takes the last counter wins (N1–N4 in its summary). Nothing is hidden."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

from engine._common import N_, Event, Option, Rules, Text, action, join_texts, rng


@dataclasses.dataclass(frozen=True, slots=True)
class NimState:
    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    heaps: tuple[int, ...]
    current: int = 0
    winner: str | None = None
    log: tuple[Event, ...] = ()


@action("take")
class Take:
    heap: int
    n: int


class NimRules(Rules[NimState, Take]):
    name = "nim"
    title = N_("Nim")
    player_counts = range(2, 5)
    options = {"heaps": Option("heaps", 3, Text("How many heaps of counters the game starts with"), (3, 4))}
    state_type = NimState
    action_types = (Take,)

    def _new_game(self, players: tuple[str, ...], options: dict[str, Any], seed: int) -> NimState:
        r = rng(seed, 0)
        heaps = tuple(r.randint(3, 7) for _ in range(options["heaps"]))
        return NimState(players, seed, options, heaps, log=(Event("deal", Text("The heaps are laid out.")),))

    def to_move(self, s: NimState) -> list[str]:
        return [] if self.is_over(s) else [s.players[s.current]]

    def candidates(self, s: NimState, player: str) -> Iterable[Take]:
        return (Take(h, n) for h in range(len(s.heaps)) for n in (1, 2, 3))

    def check(self, s: NimState, player: str, a: Take) -> Text | None:
        if self.is_over(s):
            return Text("N4: the game is over.")
        if player != s.players[s.current]:
            return Text("N2: it is not your turn.")
        if not 0 <= a.heap < len(s.heaps):
            return Text("N2: there is no heap {heap}.", heap=a.heap + 1)
        if not 1 <= a.n <= 3:
            return Text("N2: take one to three counters.")
        if a.n > s.heaps[a.heap]:
            return Text("N2: heap {heap} holds only {n} counters.", heap=a.heap + 1, n=s.heaps[a.heap])
        return None

    def step(self, s: NimState, player: str, a: Take) -> NimState:
        heaps = list(s.heaps)
        heaps[a.heap] -= a.n
        log = [Event("move", self.describe(a), player, {"action": self.action_to_json(a)})]
        winner = None
        if not any(heaps):
            winner = player
            log.append(Event("end", Text("The last counter is taken: the game is over.")))
        current = (s.current + 1) % len(s.players)
        return dataclasses.replace(s, heaps=tuple(heaps), current=current, winner=winner, log=tuple(log))

    def is_over(self, s: NimState) -> bool:
        return s.winner is not None

    def scores(self, s: NimState) -> dict[str, int]:
        return {p: int(p == s.winner) for p in s.players}

    def view(self, s: NimState, player: str | None) -> NimState:
        return s  # nothing is hidden

    def reveals(self, before: NimState, player: str, action: Take, after: NimState) -> bool:
        return False  # nothing is hidden: every move may be taken back

    def describe(self, a: Take) -> Text:
        return Text("takes {n} counter from heap {heap}", "takes {n} counters from heap {heap}", n=a.n, heap=a.heap + 1)

    def summary(self, options: Mapping[str, Any] | None = None) -> Text:
        heaps = (options or {}).get("heaps", 3)
        return join_texts(
            [
                Text("**Nim**: {n} heaps of three to seven counters lie on the table (N1).", n=heaps),
                Text("On your turn, take one, two or three counters from a single heap (N2)."),
                Text("Players take turns in seat order (N3); whoever takes the last counter wins (N4)."),
            ],
            "\n",
        )


RULES = NimRules()
