# kwx — 卡五星 mahjong bot for Telegram.  Build: docker build -t kwx .
# Run:   docker run -e TELEGRAM_BOT_TOKEN=... -v kwx-data:/data kwx
#
# Base image pinned by tag and by the digest of its multi-architecture index (the tag is only a label
# once a digest is given).  To move to a newer Python 3.11 patch release, resolve the new tag and
# replace both parts of PYTHON_IMAGE:
#   docker buildx imagetools inspect python:3.11.N-slim-bookworm   (the "Digest:" line)
# Dependencies: requirements.lock (every package, hashed), installed with --require-hashes before the
# source is copied, so a code change rebuilds only the last layers.  Refresh it after a change to
# pyproject.toml's dependencies with the command at the top of requirements.lock.
ARG PYTHON_IMAGE=python:3.11.17-slim-bookworm@sha256:2333bd330d12de02514770b3585cad313644316047cdee24a7acfdece6de6efb

FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/kwx
COPY requirements.lock /tmp/requirements.lock
RUN /opt/kwx/bin/pip install --no-cache-dir --require-hashes --no-deps -r /tmp/requirements.lock
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY kwx_bot ./kwx_bot
COPY fakebot ./fakebot
RUN /opt/kwx/bin/pip install --no-cache-dir --no-deps --no-build-isolation .

FROM ${PYTHON_IMAGE}
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PATH=/opt/kwx/bin:$PATH \
    KWX_DB_PATH=/data/kwx.sqlite3 \
    KWX_HEALTH_PORT=8080
COPY --from=build /opt/kwx /opt/kwx
RUN useradd --create-home --uid 10001 kwx \
    && mkdir -p /data \
    && chown kwx:kwx /data
USER 10001
VOLUME ["/data"]
# the Mini App's server, when KWX_WEBAPP_URL is set (KWX_WEBAPP_LISTEN=0.0.0.0 in a container)
EXPOSE 8444
# liveness of the update loop (kwx_bot/edge/health.py), not a database check: 503 when getUpdates
# stop succeeding or updates stop being processed for KWX_HEALTH_STALL_SECONDS
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('KWX_HEALTH_PORT', '8080') + '/healthz', timeout=4)"]
ENTRYPOINT ["kwx-bot"]
CMD ["run"]
