# kwx — 卡五星 mahjong bot for Telegram.  Build: docker build -t kwx .
# Run:   docker run -e TELEGRAM_BOT_TOKEN=... -v kwx-data:/data kwx
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY render ./render
COPY kwx_bot ./kwx_bot
COPY fakebot ./fakebot
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    KWX_DB_PATH=/data/kwx.sqlite3
COPY --from=build /install /usr/local
RUN useradd --create-home --uid 10001 kwx \
    && mkdir -p /data \
    && chown kwx:kwx /data
USER 10001
VOLUME ["/data"]
HEALTHCHECK --interval=60s --timeout=10s --start-period=20s --retries=3 \
    CMD ["kwx-bot", "check-db"]
ENTRYPOINT ["kwx-bot"]
CMD ["run"]
