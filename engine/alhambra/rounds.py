"""Alhambra: a scoring round as it happens in play (`scoring_round`, called by `turn` when a scoring card is drawn
and at the end): the bonus cards' standing orders first (V66), then the scoring (A43–A49, A65 for Dirk; huts V27 and
played bonus cards V63 add buildings) with one event per participant, then Dirk's draws from the bag (A63, A64)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine._common import Event, Text, replace
from engine.alhambra.components import tile_names
from engine.alhambra.scoring import bonus_counts, hut_counts, line_text, score_round
from engine.alhambra.state import AUTO_EVERY, AUTO_FINAL, GameState, ScoreLine


def scoring_round(state: GameState, rnd: int, quiet: bool = False) -> GameState:
    """A43–A49 (and A65 for Dirk); after rounds 1 and 2 Dirk draws tiles (A63, A64). With the modules: the
    standing orders for bonus cards first (V66), then huts (V27) and played bonus cards (V63) add buildings.
    `quiet` (the quiet step of AI playouts): the same state, without the round's events and texts."""
    options = state.options
    if options.get("bonus"):
        state = _autoplay(state, rnd)
    participants: list[tuple[str | None, Iterable[str], Mapping[tuple[int, int], str] | None, int]] = [
        (p, seat.alhambra.values(), seat.alhambra, seat.score)
        for p, seat in zip(state.players, state.seats, strict=True)
    ]
    if state.two_player:
        participants.append((None, state.dirk, None, state.dirk_score))
    extras = None
    if options.get("huts") or options.get("bonus"):
        extras = [(hut_counts(seat.alhambra), bonus_counts(seat.bonus_played)) for seat in state.seats]
    result = score_round(rnd, participants, extras)
    seats = tuple(replace(seat, score=line.score) for seat, line in zip(state.seats, result.lines, strict=False))
    dirk_score = result.lines[-1].score if state.two_player else state.dirk_score
    log = list(state.log)
    if not quiet:
        log += _round_events(rnd, result.lines)
    bag = state.bag
    dirk = state.dirk
    if state.two_player and rnd in (1, 2):
        want = 6 if rnd == 1 else len(bag) // 3  # A63 / A64
        got = bag[len(bag) - min(want, len(bag)) :][::-1]
        bag = bag[: len(bag) - len(got)]
        dirk = dirk + got
        if got and not quiet:
            if rnd == 1:
                said = Text(
                    "Dirk receives {n} tile from the bag: {tiles} (A63).",
                    "Dirk receives {n} tiles from the bag: {tiles} (A63).",
                    n=len(got),
                    tiles=tile_names(got),
                )
            else:
                said = Text(
                    "Dirk receives {n} tile from the bag: {tiles} (A64).",
                    "Dirk receives {n} tiles from the bag: {tiles} (A64).",
                    n=len(got),
                    tiles=tile_names(got),
                )
            log.append(Event("dirk_tiles", said, data={"tiles": list(got), "reason": f"round {rnd}"}))
    return replace(
        state,
        seats=seats,
        dirk_score=dirk_score,
        scorings=state.scorings + (result,),
        bag=bag,
        dirk=dirk,
        log=tuple(log),
    )


def _round_events(rnd: int, lines: Iterable[ScoreLine]) -> list[Event]:
    """The round's "scoring" event, then one "score" event per participant with its breakdown."""
    said = Text("Scoring round {round} (final).", round=rnd) if rnd == 3 else Text("Scoring round {round}.", round=rnd)
    out = [Event("scoring", said, data={"round": rnd})]
    for line in lines:
        if line.player is None:
            # i18n: {does} is what Dirk (the neutral player of the 2-player game) does: "scores 5 points (...)."
            said = Text("Dirk {does}", does=line_text(line))
            out.append(Event("score", said, data={"round": rnd, "dirk": True, **_line_data(line)}))
        else:
            out.append(Event("score", line_text(line), player=line.player, data={"round": rnd, **_line_data(line)}))
    return out


def _autoplay(state: GameState, rnd: int) -> GameState:
    """V62, V66: right before scoring round `rnd`, each player's standing order plays their playable bonus
    cards ("every": before every round; "final": before round 3; "never": not at all), in seat order."""
    for idx, seat in enumerate(state.seats):
        mode = seat.bonus_auto
        if not seat.bonus_hand or not (mode == AUTO_EVERY or (mode == AUTO_FINAL and rnd == 3)):
            continue
        built = set(seat.alhambra.values())
        cards = tuple(c for c in seat.bonus_hand if c in built)
        if not cards:
            continue
        seat = replace(
            seat, bonus_hand=tuple(c for c in seat.bonus_hand if c not in cards), bonus_played=seat.bonus_played + cards
        )
        event = Event(
            "bonus_autoplay",
            Text(
                "plays the bonus card for the {tiles} before scoring round {round} (standing order, V62, V66).",
                "plays the bonus cards for the {tiles} before scoring round {round} (standing order, V62, V66).",
                n=len(cards),
                tiles=tile_names(cards),
                round=rnd,
            ),
            player=state.players[idx],
            data={"cards": list(cards), "round": rnd},
        )
        state = replace(state, seats=state.seats[:idx] + (seat,) + state.seats[idx + 1 :], log=state.log + (event,))
    return state


def _line_data(line: ScoreLine) -> dict[str, Any]:
    return {
        "player": line.player,
        "counts": dict(line.counts),
        "majorities": dict(line.majorities),
        "wall": line.wall,
        "total": line.total,
        "score": line.score,
    }
