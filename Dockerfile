# The bot in a container (README, "Deployment"): python bot.py as an unprivileged user, the SQLite database on
# the /data volume (or DATABASE_URL for PostgreSQL), the engine compiled (setup.py: mypyc, with gcc in a build
# stage the image does not keep) and the translations compiled while the image is built, and a HEALTHCHECK on
# /healthz (HEALTH_PORT). Build: docker build -t alhambra-table .
# PYTHON_IMAGE: any Debian-based Python 3.11+ image (the default is Docker's official slim one).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm
FROM ${PYTHON_IMAGE} AS build

# the C compiler for the engine's extensions, only in this stage (Debian's, from the base image's release)
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY . .
# the dependencies (pinned in pyproject.toml) in a virtual environment, the engine compiled beside its sources
# (the build fails if it is not), then every language's catalog compiled
RUN python3 -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir -e . \
    && /opt/venv/bin/python -c "import engine, sys; sys.exit(engine.BUILD != 'compiled' and 'engine not compiled')" \
    && /opt/venv/bin/python -m i18n compile \
    && /opt/venv/bin/python -m i18n check

FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH \
    DATABASE_PATH=/data/games.sqlite3 \
    HEALTH_PORT=8080 \
    HEALTH_HOST=0.0.0.0

# an unprivileged user owning only the data volume; the code is root's and read-only to the bot
RUN groupadd --system --gid 10001 bot \
    && useradd --system --uid 10001 --gid bot --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin bot \
    && mkdir -p /data \
    && chown bot:bot /data

COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app

USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('HEALTH_PORT', '8080'), timeout=4)"]
CMD ["python", "bot.py"]
