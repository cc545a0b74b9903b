"""The bot process of bench/capacity.py: the real bot (`bot.main`) against a fake Discord at the network
boundary, fed raw gateway payloads (one JSON object per line on stdin, dispatched as INTERACTION_CREATE the moment
it arrives, as the gateway would) and reporting what a player would see, as JSON lines on stdout:

    {"ev": "ack", "id": <interaction id>, "t": <CLOCK_MONOTONIC>}     the interaction's first response
    {"ev": "post", "channel": <id>, "t": ..., "note": <a reminder>}   a public message in a channel
    {"ev": "lag", "max": <s>, "step": <s>, "t": ...}                  the loop's worst lag and longest step, per second
    {"ev": "pass", "what": "reminders" | "outbox" | "ai", "wall": <s>, "t": ...}
    {"ev": "refused", "text": ...}                                    a player was told no (a planned move failed)
    {"ev": "cpu", "bot": <s>, "workers": <s>, "t": ...}               CPU used so far, per second: this process,
                                                                      and its worker processes (drawing, AI)
    {"ev": "ready", "t": ...} and {"ev": "rss", "kib": ...}

The fake keeps no images or old messages (so that its own memory does not count against the bot's).
Not a test: run by bench/capacity.py.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import resource
import sys
import time
from collections import OrderedDict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord  # noqa: E402

import bot  # noqa: E402
from tests.bot.harness import ErrorLog, FakeDiscord, Harness, Msg, ready, replace_network  # noqa: E402

OUT = sys.stdout
PROFILER: list = [None]  # CAPACITY_PROFILE: the cProfile of the event loop's thread, and when it starts
PROFILE_START = [0.0]


def emit(**event) -> None:
    OUT.write(json.dumps(event) + "\n")
    OUT.flush()


class LightDiscord(FakeDiscord):
    """The harness's fake Discord, keeping only the last few thousand messages and no file bytes."""

    def __init__(self) -> None:
        super().__init__()
        self.messages = OrderedDict()
        self.checked = False

    def _files(self, files):
        return [(f.filename, b"") for f in files or []]

    def _record_uploads(self, msg, files) -> None:
        pass

    def create(self, channel_id, data, files, **kwargs) -> Msg:
        msg = super().create(channel_id, data, files, **kwargs)
        self.sent.clear()
        while len(self.messages) > 5000:
            self.messages.popitem(last=False)
        if not msg.ephemeral:
            emit(ev="post", channel=channel_id, t=time.monotonic(), note=msg.content.startswith("⏰"))
        elif msg.content and not msg.content.startswith("✅"):
            emit(ev="refused", text=msg.content[:200], channel=msg.channel_id, t=time.monotonic())
        return msg

    def edit(self, msg, data, files) -> Msg:
        msg = super().edit(msg, data, files)
        if msg.ephemeral and msg.content and not msg.content.startswith("✅"):
            emit(ev="refused", text=msg.content[:200], channel=msg.channel_id, t=time.monotonic())
        return msg

    def _callback(self, ia, body, files):
        out = super()._callback(ia, body, files)
        emit(ev="ack", id=ia.id, t=time.monotonic())
        if len(self.interactions) > 5000:
            for token in list(self.interactions)[:1000]:
                del self.interactions[token]
        return out


def install(fake: LightDiscord) -> None:
    async def connect(self: discord.Client, *, reconnect: bool = True) -> None:
        h = Harness(fake, self, ErrorLog(), [])
        ready(self, self.application_id or 1, self.application_id)
        state = self._connection
        state.parsers["GUILD_CREATE"](h.guild_payload())
        if os.environ.get("CAPACITY_PLAN"):  # every server of the running games, as the gateway sends them at connect
            for guild_id, channels in guilds_of(os.environ["CAPACITY_PLAN"]).items():
                payload = h.guild_payload()
                payload["id"] = payload["roles"][0]["id"] = str(guild_id)
                payload["channels"] = [
                    {**h.channel_payload(c, f"games-{i}"), "guild_id": str(guild_id)} for i, c in enumerate(channels)
                ]
                state.parsers["GUILD_CREATE"](payload)
        await self.wait_until_ready()
        emit(ev="ready", t=time.monotonic())
        if PROFILER[0] is not None and PROFILE_START[0]:
            asyncio.get_running_loop().call_later(PROFILE_START[0], PROFILER[0].enable)
        asyncio.create_task(watch_loop(self))
        instrument(self)
        if os.environ.get("CAPACITY_SQL"):  # count the statements the bot runs, by text, written at exit
            await count_statements(self, os.environ["CAPACITY_SQL"])
        reader = asyncio.StreamReader(limit=2**24)
        loop = asyncio.get_running_loop()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while not self.is_closed():
            try:
                line = await asyncio.wait_for(reader.readline(), 0.1)  # so that a close is noticed
            except TimeoutError:
                continue
            if not line:
                await asyncio.sleep(0.05)
                continue
            payload = json.loads(line)
            from tests.bot.harness import Interaction, User

            user = User(int(payload["member"]["user"]["id"]), payload["member"]["user"]["global_name"])
            ia = Interaction(int(payload["id"]), payload["token"], 2, user, time.perf_counter())
            fake.interactions[ia.token] = ia
            state.parsers["INTERACTION_CREATE"](payload)

    replace_network(fake, connect)


def guilds_of(plan_path: str) -> dict[int, list[int]]:
    """The servers of the planned games, with their games' channels (bench/capacity.py's plan.json)."""
    guilds: dict[int, list[int]] = {}
    for game in json.loads(Path(plan_path).read_text()):
        guilds.setdefault(int(game["guild"]), []).append(int(game["channel"]))
    return guilds


STEP = [0.0]  # the longest single step of the event loop (one callback or task step) since the last report
GC = [0.0, 0.0]  # the longest garbage collection since the last report, and when the current one began


def time_gc(phase: str, info: dict) -> None:
    if phase == "start":
        GC[1] = time.perf_counter()
    else:
        GC[0] = max(GC[0], time.perf_counter() - GC[1])


def time_steps() -> None:
    """Measure every step the event loop runs: a stall is one step that keeps everything else waiting."""
    real = asyncio.events.Handle._run

    def run(self):
        t0 = time.perf_counter()
        try:
            return real(self)
        finally:
            STEP[0] = max(STEP[0], time.perf_counter() - t0)

    asyncio.events.Handle._run = run


async def watch_loop(client: discord.Client) -> None:
    """Per second: the event loop's lag (how late a 10 ms sleep wakes up: all the work queued before it), its
    longest single step (a stall), and the process's RSS."""
    worst, since = 0.0, time.monotonic()
    while not client.is_closed():
        t0 = time.monotonic()
        await asyncio.sleep(0.01)
        worst = max(worst, time.monotonic() - t0 - 0.01)
        if time.monotonic() - since >= 1.0:
            emit(ev="lag", max=worst, step=STEP[0], gc=GC[0], t=time.monotonic())
            emit(ev="rss", kib=rss_kib())
            emit(ev="cpu", bot=time.process_time(), loop=time.thread_time(), workers=workers_cpu(), t=time.monotonic())
            worst, since, STEP[0], GC[0] = 0.0, time.monotonic(), 0.0, 0.0


TICK = os.sysconf("SC_CLK_TCK")


def workers_cpu() -> float:
    """The CPU seconds (user + system) used so far by this process's worker processes (the drawing pool and the
    AI pool: multiprocessing's children), read from /proc."""
    total = 0.0
    for child in multiprocessing.active_children():
        try:
            with open(f"/proc/{child.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK  # utime, stime
    return total


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


async def count_statements(client, path: str) -> None:
    """SQLite only: every statement the bot's connection runs from its start-up on, counted by its text, with the
    number of public posts, dumped as JSON at exit."""
    import atexit
    from collections import Counter

    counts: Counter = Counter()
    posts = [0]
    await client.storage._db.set_trace_callback(lambda sql: counts.update([sql[:160]]))
    real = LightDiscord.create

    def create(self, channel_id, data, files, **kwargs):
        msg = real(self, channel_id, data, files, **kwargs)
        if not msg.ephemeral:
            posts[0] += 1
        return msg

    LightDiscord.create = create
    atexit.register(lambda: Path(path).write_text(json.dumps({"posts": posts[0], "sql": counts.most_common()})))


def instrument(client) -> None:
    """Time the background passes (wall time of each call)."""
    turns, ai_cog = client.get_cog("TurnsCog"), client.get_cog("AISeatsCog")

    def timed(obj, name, what):
        real = getattr(obj, name)

        async def wrapper(*args, **kwargs):
            t0 = time.monotonic()
            try:
                return await real(*args, **kwargs)
            finally:
                emit(ev="pass", what=what, wall=time.monotonic() - t0, t=time.monotonic())

        setattr(obj, name, wrapper)

    timed(turns, "send_reminders", "reminders")
    timed(client.herald, "deliver_all", "outbox")
    timed(ai_cog, "kick_all", "ai")


if __name__ == "__main__":
    import gc

    gc.callbacks.append(time_gc)
    if os.environ.get("CAPACITY_LOOP") == "asyncio":  # asyncio's own loop, whose every step is timed below
        bot.run = asyncio.run
        time_steps()
    install(LightDiscord())
    if os.environ.get("CAPACITY_PROFILE"):  # a cProfile of this process (the event loop's thread), written at exit
        import atexit
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU of the event loop thread, not wall time
        atexit.register(lambda: profiler.dump_stats(os.environ["CAPACITY_PROFILE"]))
        PROFILE_START[0] = float(os.environ.get("CAPACITY_PROFILE_AFTER", "0"))  # seconds after ready: steady state
        PROFILER[0] = profiler
        if not PROFILE_START[0]:
            profiler.enable()
    bot.main([])
