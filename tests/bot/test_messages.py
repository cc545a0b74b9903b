"""Message texts stay within Discord's limits whatever the engine reports, and the harness's limit checks work."""

import dataclasses

from cogs import _text
from storage import GameRow, Seat
from tests.bot.harness import _check_commands, _check_components, _check_message


def row(status="active", game="gardens", **changes) -> GameRow:
    """A running game's row as storage gives it (`changes`: other field values)."""
    base = GameRow(
        id=1,
        guild_id=1,
        channel_id=2,
        game=game,
        options={},
        seed=1,
        status=status,
        seats=(Seat("11", "Ana"), Seat("22", "Bo")),
        state_json="{}",
        version=40,
        creator_id="11",
        lobby_message_id=None,
        reminder_hours=24,
        created_at=0.0,
        updated_at=3600.0,
        turn_started_at=0.0,
        reminded_at=None,
        nudged_at=None,
    )
    return dataclasses.replace(base, **changes)


def test_a_flood_of_events_never_hides_the_results():
    notice = {
        "player": "11",
        "action": {"kind": "choose_colours", "colours": ["orange"]},
        "before": ["11"],
        "events": [["22", f"scores {n} points for a long reason " * 3] for n in range(100)],
        "to_move": [],
        "side": [],
        "free": False,
        "finished": True,
        "scores": {"11": 10, "22": 12},
        "winners": ["22"],
    }
    text = _text.move_content(row("finished"), [notice])
    assert len(text) <= 2000
    assert text.splitlines()[-1] == "**Scores:** **Bo** 12 · **Ana** 10"
    assert "more (see `/game log`" in text


def test_turn_line_pings_only_players_whose_turn_begins():
    r = row()
    assert _text.turn_line(r, ["22"], ["11"]) == "Your turn, <@22>."
    assert _text.turn_line(r, ["11"], ["11"]) == "**Ana** continues."
    assert _text.turn_line(r, ["22", "11"], ["11"]) == "To move: <@22>, **Ana**."


def test_harness_catches_discord_limit_breaches():
    out: list[str] = []
    _check_message({"content": "x" * 2001}, "m", out)
    _check_components([{"type": 1, "components": []}] * 6, "m", out)
    _check_components(
        [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": f"b{i}", "label": "b"} for i in range(6)]}],
        "m",
        out,
    )
    _check_components(
        [
            {
                "type": 1,
                "components": [
                    {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(26)]}
                ],
            }
        ],
        "m",
        out,
    )
    _check_components(
        [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "x" * 101, "label": "b"}]}], "m", out
    )
    _check_commands([{"name": "Bad Name", "description": "", "options": []}], out)
    assert len(out) == 7, out


def test_vizier_line_names_out_of_turn_buyers_without_pings():
    """V4/V12: the vizier window is one line naming the claimants (no mentions) and whose turn it is."""
    r = row("active", "alhambra")
    line = _text.out_of_turn_line(r, ["22"], ["11", "22"])
    assert line == "🧞 Vizier: **Bo** may buy out of turn until **Ana** acts."
    assert "<@" not in line and _text.out_of_turn_line(r, [], ["11"]) == ""


def test_long_texts_are_split_between_lines_not_cut():
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(50))
    parts = _text.chunks(text)
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == text
    assert _text.chunks("y" * 4500) == ["y" * 2000, "y" * 2000, "y" * 500]
    assert _text.chunks("") == [""]
    assert _text.plural(1, "more player") == "1 more player" and _text.plural(2, "more player") == "2 more players"


def test_turn_line_names_who_could_already_move_without_a_new_ping():
    """After an out-of-turn action (a clap, a vizier purchase, V6) whoever was already to move is named, not
    pinged again; the actor carrying on "continues"."""
    r = row()
    assert _text.turn_line(r, ["22"], ["22", "11"], actor="11") == "Still to move: **Bo**."
    assert _text.turn_line(r, ["11"], ["22", "11"], actor="11") == "**Ana** continues."
