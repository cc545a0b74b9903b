"""A finished game's animation shared in a channel: the first claim wins on every backend, a posted share is
remembered (its message id), a claim given up or left stale (its claimant died) can be taken again."""

from __future__ import annotations

import asyncio


async def test_the_first_claim_wins_and_the_post_is_remembered(db):
    first, second = await asyncio.gather(db.claim_share(1, 10, "en", now=100.0), db.claim_share(1, 10, "en", now=100.0))
    assert sorted([first, second]) == [(False, None), (True, None)]
    assert await db.claim_share(1, 10, "en", now=101.0) == (False, None)  # still being drawn
    assert await db.claim_share(1, 11, "en", now=101.0) == (True, None)  # another channel
    assert await db.claim_share(1, 10, "de", now=101.0) == (True, None)  # another language
    await db.share_posted(1, 10, "en", 123456789012345678)
    assert await db.claim_share(1, 10, "en", now=5000.0) == (False, 123456789012345678)  # never stale once posted


async def test_a_claim_given_up_or_stale_can_be_taken_again(db):
    assert await db.claim_share(2, 10, "en", now=100.0) == (True, None)
    await db.share_posted(2, 10, "en", None)  # the drawing failed: given up
    assert await db.claim_share(2, 10, "en", now=101.0) == (True, None)
    assert await db.claim_share(2, 10, "en", now=101.0 + 899) == (False, None)
    assert await db.claim_share(2, 10, "en", now=101.0 + 901) == (True, None)  # its claimant died long ago
