"""Queen's Garden states stored by earlier versions of the engine, brought up to date (`Rules.migrate`).

Version 1 kept the whole history in `log`. Version 2 keeps only the last action's events there, and each seat
keeps what the results sheet needs: `round_points` (Q31–Q33) and `final` (Q35). A version-1 payload becomes
the state the engine would have reached by playing the same moves: the seats' fields come from the old log's
"round_scoring" and "final_scoring" events, and the log is cut to the last action's events, from its last
"move" event on (every action writes one first). A log written before move events existed (it has none)
cannot be cut into actions: it is kept only when it is still the deal's (the first round's start), else
dropped.
"""

from __future__ import annotations

from typing import Any

from engine._common import Event, from_jsonable, to_jsonable
from engine.queens_garden.state import FinalScore


def migrate(version: Any, payload: Any) -> Any:
    """The payload of a stored state of JSON `version`, in the current form. ValueError for unknown versions."""
    if version != 1:
        raise ValueError(f"unknown Queen's Garden state version {version!r}")
    if not isinstance(payload, dict) or not isinstance(payload.get("seats"), list):
        raise ValueError("a Queen's Garden state must be an object with seats")
    log: tuple[Event, ...] = from_jsonable(tuple[Event, ...], payload.get("log", []))
    players = list(payload.get("players", ()))
    rounds: dict[str, dict[int, int]] = {p: {} for p in players}
    finals: dict[str, FinalScore] = {}
    for e in log:
        if e.kind == "round_scoring" and e.player in rounds:
            rounds[e.player][e.data["round"]] = e.data["points"]
        elif e.kind == "final_scoring" and e.player in rounds:
            finals[e.player] = FinalScore(
                before=e.data["before"],
                after_storage=e.data["after_storage"],
                colour_points=sum(g["points"] for g in e.data["colour_groups"]),
                pattern_points=sum(g["points"] for g in e.data["pattern_groups"]),
                bonus=e.data["bonus"],
            )
    seats = []
    for p, seat in zip(players, payload["seats"], strict=True):
        if not isinstance(seat, dict):
            raise ValueError("a seat must be an object")
        final = finals.get(p)
        seats.append(
            {
                **seat,
                "round_points": [rounds[p][r] for r in sorted(rounds[p])],
                "final": to_jsonable(final) if final is not None else None,
            }
        )
    return {**payload, "seats": seats, "log": to_jsonable(last_action(log))}


def last_action(log: tuple[Event, ...]) -> tuple[Event, ...]:
    """The events of the last action in a whole-history log (see the module docstring)."""
    starts = [i for i, e in enumerate(log) if e.kind == "move"]
    if starts:
        return log[starts[-1] :]
    if all(e.kind == "round_start" and e.data.get("round") == 1 for e in log):
        return log
    return ()
