"""A custom_id is user input: forged or outdated ones of every format the bot registers get a short polite
ephemeral answer, change nothing, edit no public post and log no traceback."""

from __future__ import annotations

import pytest

import cogs.lfg  # noqa: F401 (its Accept/Decline family: registered when the extension module is loaded)
from cogs._items import LobbyButton, TableButton
from cogs.games import FAMILIES  # every family is registered once the cog module is loaded
from cogs.tournaments import TournamentButton
from tests.bot.driver import create_and_start
from tests.bot.harness import CHANNEL_ID, OTHER_CHANNEL_ID, Msg

HUGE = "9" * 20  # beyond SQLite's integer range
POLITE = (
    "out of date",
    "not available any more",
    "belongs to a player's own panel",
    "Nothing to do here",
    "nothing was played",
    "nothing was changed",
)


def forged(h, source: Msg, custom_id: str, kind: int, *, ephemeral: bool | None = None, user=None) -> Msg:
    """A copy of `source` carrying one forged component (a button, or a select with options 0..2)."""
    if kind == 2:
        component = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    else:
        component = {
            "type": 3,
            "custom_id": custom_id,
            "options": [{"label": str(i), "value": str(i)} for i in range(3)],
        }
    eph = source.ephemeral if ephemeral is None else ephemeral
    msg = Msg(
        h.fake.snowflake(),
        source.channel_id,
        source.content,
        [{"type": 1, "components": [component]}],
        [],
        [],
        eph,
        (user.id if user else source.visible_to) if eph else None,
        flags=64 if eph else 0,
    )
    h.fake.messages[msg.id] = msg
    return msg


async def state_of(h):
    rows = [await h.bot.session.storage.load_game(g) for g in (1, 2)]
    public = [(m.id, m.content, m.edits, len(m.files)) for m in h.public()]
    return [(r.version, r.status, r.seats) if r else None for r in rows], public


def test_no_custom_id_is_claimed_by_two_families():
    samples = [
        "g:1:join",
        "g:1:rules",
        "g:1:play",
        "g:1:board",
        "g:1:p:3.abc:k:0.1",
        "g:1:p:3.abc:c:2",
        "s:1:3.abc:a:0.0",
        "s:1:3.abc:g:0",
        "s:1:ai:add",
        "s:1:ai:rm",
        "f:1:abc:s:",
        "f:1:abc:c:1",
        "t:1:join",
        "t:1:leave",
        "t:1:start",
        "g:1:seat",
        "ts:1:2:yes",
        "ts:1:2:no",
        "lfg:1:yes",
        "lfg:1:no",
    ]
    for cid in samples:
        owners = [f.__name__ for f in FAMILIES if f.__discord_ui_compiled_template__.fullmatch(cid)]
        assert len(owners) == 1, (cid, owners)


def test_every_op_of_the_plain_button_families_is_answered_by_a_registered_feature():
    """The table's and the lobby's ops are answered by the handlers their features registered (the registry of
    cogs/_items.py, not a chain of ifs): every op the templates name has one once the cogs are loaded, the
    custom_ids are those posted before (an old post's buttons still dispatch), and an op the template does not
    name, or a second handler for one, is refused when it is registered (the same handler again, as when its
    module is loaded again, replaces itself)."""
    table = {"play", "hand", "free", "board", "rules", "rematch", "back", "seat", "review"}
    for family, ops in ((TableButton, table), (LobbyButton, {"join", "leave", "ai", "start", "cancel"})):
        assert set(family.actions) == ops
        for op in ops:
            assert family(7, op).custom_id == f"g:7:{op}"
    assert TableButton.actions["play"].__module__ == "cogs._panel"
    assert TableButton.actions["free"].__module__ == "cogs._free"
    with pytest.raises(ValueError):
        TableButton.on("zap")(TableButton.actions["board"])
    with pytest.raises(ValueError):
        TableButton.on("board")(TableButton.actions["hand"])
    board = TableButton.actions["board"]
    assert TableButton.on("board")(board) is board and TableButton.actions["board"] is board
    assert len({(f.__module__, f.__qualname__) for f in FAMILIES}) == len(FAMILIES)


async def test_forged_custom_ids_of_every_format_get_a_polite_answer_and_change_nothing(harness, users):
    h = harness
    ana, bo, eve = users[0], users[1], users[4]
    post = await create_and_start(h, "fake", [ana, bo], options="no-claps")
    other = await create_and_start(h, "gardens", [eve, bo], channel_id=OTHER_CHANNEL_ID)  # game 2, elsewhere
    panel = (await h.click(ana, post, "Play my turn")).message  # Ana's own ephemeral panel
    pos = h.button(panel, "Add")["custom_id"].split(":")[3]
    cases = [  # (custom_id, component type, on which message, who clicks)
        (f"g:{HUGE}:play", 2, post, ana),  # a game id beyond the integer range
        ("g:-1:play", 2, post, ana),  # a negative id: no family matches
        ("g:1:zap", 2, post, ana),  # an unknown op
        ("g:1:bonus", 2, post, ana),  # an op of an older version
        ("g:2:play", 2, post, ana),  # another channel's game
        ("g:2:join", 2, post, bo),
        (f"g:1:p:{pos}:k:99.0", 2, panel, ana),  # a kind index beyond the list
        (f"g:1:p:{pos}:k:0.999", 2, panel, ana),  # a page beyond the list (shows the last page: still polite)
        (f"g:1:p:{pos}:c:99", 2, panel, ana),  # Confirm of an action index beyond the list
        (f"g:{HUGE}:p:{pos}:c:0", 2, panel, ana),
        (f"s:1:{pos}:a:0.0", 3, panel, ana),  # a select whose value is beyond the list (values: "999")
        (f"s:1:{pos}:g:0", 3, panel, ana),  # narrowing where there are no groups
        (f"s:{HUGE}:ai:add", 3, panel, ana),
        ("s:1:ai:add", 3, panel, ana),  # the AI panel of a game that has started
        ("f:1:zz:s:", 3, panel, ana),  # a free-actions menu drawn at another position
        ("f:1:zz:c:2", 2, panel, ana),
        ("f:2:zz:c:0", 2, panel, ana),  # another channel's game
        ("t:1:join", 2, post, ana),  # a tournament that does not exist
        (f"t:{HUGE}:start", 2, post, ana),
        (f"g:1:p:{pos}:k:0", 2, post, ana),  # a panel button on a public post
        (f"s:1:{pos}:a:0.0", 3, post, ana),  # a panel menu on a public post
        ("g:1:seat", 2, post, eve),  # Take this seat where no seat is vacant
        ("ts:1:7:yes", 2, post, ana),  # the answer to a substitute's request that was never made
        (f"ts:{HUGE}:1:no", 2, post, ana),
        ("lfg:99:yes", 2, post, ana),  # a match that never was
        (f"lfg:{HUGE}:no", 2, post, ana),
    ]
    before = await state_of(h)
    for custom_id, kind, source, user in cases:
        msg = forged(h, source, custom_id, kind, user=user)
        values = ["999"] if kind == 3 else None
        payload, ia = h.component_payload(user, msg, custom_id, kind, values)
        ia = await h.feed(payload, ia)
        reply = ia.message
        assert ia.response_type is not None, custom_id
        if ia.response_type in (6, 7):  # the user's own panel, edited in place (or a note beside it)
            assert msg.ephemeral and msg.visible_to == user.id, custom_id
            text = "\n".join([msg.content, *(m.content for m in ia.followups if m.ephemeral)])
        else:
            assert reply is not None and reply.ephemeral and reply.visible_to == user.id, custom_id
            text = reply.content
        assert any(p in text for p in POLITE) or "possible move" in text, (custom_id, text)
        assert "went wrong" not in text, custom_id
        assert await state_of(h) == before, custom_id
    assert h.unexpected_errors == []
    assert other.public


@pytest.mark.parametrize("game", ["gardens"])
async def test_free_action_ids_on_a_game_without_free_actions(harness, users, game):
    h = harness
    ana, bo = users[:2]
    post = await create_and_start(h, game, [ana, bo])
    for custom_id, kind in [("g:1:free", 2), ("f:1:zz:s:", 3), ("f:1:zz:c:0", 2)]:
        msg = forged(h, post, custom_id, kind, ephemeral=kind == 3 or custom_id.startswith("f:"), user=ana)
        payload, ia = h.component_payload(ana, msg, custom_id, kind, ["0"] if kind == 3 else None)
        ia = await h.feed(payload, ia)
        text = msg.content if ia.response_type in (6, 7) else ia.message.content
        assert any(p in text for p in POLITE), (custom_id, text)
    assert (await h.bot.session.storage.game_in_channel(CHANNEL_ID)).version == 0
    assert h.unexpected_errors == []


def test_the_tournament_buttons_keep_their_custom_ids():
    """The sign-up post's buttons as posted before a restart still parse (t:<tournament>:<op>)."""
    for op in ("join", "leave", "start"):
        assert TournamentButton(7, op).custom_id == f"t:7:{op}"
        assert TournamentButton.__discord_ui_compiled_template__.fullmatch(f"t:7:{op}")
    assert ("cogs.tournaments", "TournamentButton") in {(f.__module__, f.__qualname__) for f in FAMILIES}
