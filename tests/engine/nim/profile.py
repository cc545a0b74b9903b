"""What the shared tests need to know of Nim: its registry entry (a test-only game, registered by the fixture of
tests/conftest.py for the tests that run it), the prefix of its rule ids; nothing is hidden, it has no renderer
and no AI, so every other field keeps its default."""

from engine import GameEntry
from tests.games import Profile

PROFILE = Profile(
    entry=GameEntry("nim", rules="tests.engine.nim.rules"),
    rule_prefixes="N",
    examples=10,
    max_steps=60,
)
