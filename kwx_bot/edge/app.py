"""Application wiring: builder, handlers, start-up and shutdown (docs/architecture.md §4 "main() only wires").

:func:`build_application` makes the production ``Application`` from :class:`Settings` (token,
optional own Bot API server, :class:`~kwx_bot.edge.throttle.PacingRateLimiter`); tests pass their own
``ApplicationBuilder`` (wired to the fake Bot API) and, if they like, their own pictures.

``post_init`` takes the bot's run lock (one process per bot and database, docs/security.md §6; a
second process stops here with :class:`~kwx_bot.store.AlreadyRunning`), opens the store (running
migrations), creates the :class:`TableService` with JobQueue timers, registers the command menus
per scope and language (``setMyCommands``) and resumes every open table (replaying its events,
re-arming its deadline, refreshing its messages).  ``post_shutdown`` stops background work, closes
the store and releases the lock.

Operations (docs/architecture.md §4): a :class:`~kwx_bot.edge.health.Liveness` follows the update
loop (every ``getUpdates`` of the production long poll, every update processed) and, with
``KWX_HEALTH_PORT``, answers ``GET /healthz``; with ``KWX_METRICS_PORT`` Prometheus metrics
(:mod:`kwx_bot.edge.metrics`) are recorded and served as ``GET /metrics``.  With ``KWX_WEBAPP_URL``
the Mini App's server (:mod:`kwx_bot.webapp.server`) is started the same way, over the same service,
and stopped first (its live streams ended: the pages reconnect to the next start).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
from collections.abc import Awaitable, Callable
from typing import Any, cast

from aiohttp import web
from telegram import (
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)
from telegram.ext import ApplicationBuilder

from ..service import TableService
from ..service.pictures import Pictures, RenderPictures
from ..service.timers import JobQueueTimers
from ..settings import Settings
from ..store import RunLock, SqlStore, TableStore, hold_run_lock, open_store
from ..webapp.server import WebApp, start_webapp
from ..words.help_text import MenuScope, command_menu
from ..words.i18n import translator
from .context import CONTEXT_TYPES, KwxApplication
from .handlers import register
from .health import Handler, HeartbeatRequest, Liveness, health_handler, start_ops_server
from .metrics import NO_METRICS, Metrics, PrometheusMetrics, TimedPictures
from .processor import PerChatProcessor
from .sender import Sender
from .throttle import GroupBudget, Holds, PacingRateLimiter, ThrottleLog, TokenLoad

__all__ = ["build_application", "register_commands"]

log = logging.getLogger("kwx")

_SCOPES: tuple[tuple[MenuScope, BotCommandScope], ...] = (
    (MenuScope.PRIVATE, BotCommandScopeAllPrivateChats()),
    (MenuScope.GROUP, BotCommandScopeAllGroupChats()),
    (MenuScope.ADMINS, BotCommandScopeAllChatAdministrators()),
)


async def register_commands(app: KwxApplication, default_language: str) -> None:
    """Command menus (``setMyCommands``) for private chats, groups and group administrators, from
    :func:`kwx_bot.words.help_text.command_menu`: in the default language, and for Chinese and English
    clients in theirs."""
    bot = app.bot
    for menu, scope in _SCOPES:
        for code, lang in (("", default_language), ("zh", "zh_CN"), ("en", "en")):
            commands = [BotCommand(cmd, desc) for cmd, desc in command_menu(translator(lang), menu)]
            await bot.set_my_commands(commands, scope=scope, language_code=code or None)


def _stop_on_signals(
    app: KwxApplication, sender: Sender, limiter: PacingRateLimiter | None, pictures: Pictures
) -> None:
    """SIGINT/SIGTERM: end the sender's and the rate limiter's waits, tell the pictures a stop is
    coming (a render worker that got the process group's signal too is not an error), then stop
    polling (PTB then finishes the updates in hand — quickly, as nothing waits on Telegram any more —
    and shuts down)."""
    loop = asyncio.get_running_loop()

    def stop(signum: int) -> None:
        log.info("%s: stopping", signal.Signals(signum).name)
        sender.stop()
        if limiter is not None:
            limiter.stop()
        stopping = getattr(pictures, "stopping", None)
        if callable(stopping):
            stopping()
        app.stop_running()

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)


def _ops_routes(
    settings: Settings, app: KwxApplication, liveness: Liveness, metrics: Metrics
) -> dict[int, dict[str, Handler]]:
    """Port -> path -> handler of the health and metrics endpoints that are switched on."""
    routes: dict[int, dict[str, Handler]] = {}
    if settings.health_port is not None:
        routes.setdefault(settings.health_port, {})["/healthz"] = health_handler(liveness, app.update_queue.qsize)
    if settings.metrics_port is not None:

        async def serve_metrics(request: web.Request) -> web.Response:
            body, content_type = metrics.exposition()
            response = web.Response(body=body)
            response.headers["Content-Type"] = content_type
            return response

        routes.setdefault(settings.metrics_port, {})["/metrics"] = serve_metrics
    return routes


async def _keep_group_writes(store: TableStore, bot_id: int, budget: GroupBudget) -> None:
    """A clean stop: store the writes of each group's last minute, so the next start counts them
    (docs/architecture.md §4 "Rate limits"); a failure is logged, never stops the shutdown."""
    try:
        async with store.transaction() as tx:
            await tx.keep_group_writes(bot_id, budget.snapshot())
    except Exception:
        log.exception("could not store the groups' recent writes")


def build_application(
    settings: Settings,
    *,
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] | None = None,
    pictures: Pictures | None = None,
    store: SqlStore | None = None,
    flood_sleep: Callable[[float], Awaitable[None]] | None = None,
    handle_signals: bool = False,
) -> KwxApplication:
    """The kwx ``Application``.  ``builder``: a pre-configured builder (tests: the fake Bot API);
    ``store``: an already open store (tests restarting on the same database use a fresh one);
    ``flood_sleep``: how the sender waits out a 429 (tests: on the fake's clock);
    ``handle_signals``: on SIGINT/SIGTERM end every wait on Telegram (flood waits, pacing) at once
    and stop — the process exits within seconds whatever Telegram is doing, and what was not shown
    yet is shown after the next start (run with ``run_polling(stop_signals=None)``)."""
    throttle = ThrottleLog()
    budget = GroupBudget(settings.group_messages, settings.group_window_seconds)
    holds = Holds()
    metrics: Metrics = PrometheusMetrics() if settings.metrics_port is not None else NO_METRICS
    polling = settings.webhook_url is None
    # the long poll is followed only through the production builder's own getUpdates request
    liveness = Liveness(settings.health_stall_seconds, polling=polling and builder is None)
    if builder is None:
        builder = ApplicationBuilder().token(settings.token)
        if settings.api_base_url:
            builder = builder.base_url(f"{settings.api_base_url}/bot").base_file_url(
                f"{settings.api_base_url}/file/bot"
            )
        if polling:
            builder = builder.get_updates_request(HeartbeatRequest(liveness))
    limiter = (
        PacingRateLimiter(budget=budget, holds=holds, on_wait=lambda p, s: metrics.paced(p.name.lower(), s))
        if settings.rate_limit
        else None
    )
    if limiter is not None:  # production (tests opt in): pacing only; the sender is the one retry layer
        builder = builder.rate_limiter(limiter)

    owned: list[SqlStore] = []  # a store this application opened (and closes)
    locks: list[RunLock] = []  # the run lock of the bot on that store (docs/security.md §6)
    servers: list[web.AppRunner] = []  # the health / metrics endpoints, the Mini App
    webapps: list[WebApp] = []

    async def post_init(app: KwxApplication) -> None:
        if store is None:  # one process per bot and database: a second one stops here, touching nothing
            target = settings.database_url or settings.db_path
            locks.append(await hold_run_lock(target, settings.bot_id))
            owned.append(await open_store(target))
        opened = store if store is not None else owned[0]
        drawing: Pictures = pictures or RenderPictures(settings.picture_format, processes=settings.render_processes)
        if metrics.enabled:
            drawing = TimedPictures(drawing, metrics)
            opened.on_commit = metrics.commit
            opened.statements.told = metrics.statement
        # the token's load is judged against the rate the bot paces itself to (no pacing: never busy)
        load = TokenLoad() if settings.rate_limit else TokenLoad(limit=0)
        sender = Sender(
            app.bot, throttle=throttle, sleep=flood_sleep, budget=budget, load=load, metrics=metrics, holds=holds,
            paced=limiter is not None,
        )  # fmt: skip
        # the tables' deadlines in PTB's JobQueue, given to the service as it is made
        timers = None if app.job_queue is None else functools.partial(JobQueueTimers, app.job_queue)
        service = TableService(opened, sender, drawing, settings, timers=timers)
        metrics.live_tables(lambda: len(service.tables.cached()))
        servers.extend(await start_ops_server(settings.ops_listen, _ops_routes(settings, app, liveness, metrics)))
        if settings.webapp_url is not None:
            webapp, runner = await start_webapp(service, settings)
            webapps.append(webapp)
            servers.append(runner)
        budget.restore(await opened.group_writes(bot_id=settings.bot_id))  # the last minute before a clean stop
        app.bot_data.start(service, sender)
        try:
            await register_commands(app, settings.default_language)
        except Exception:
            log.exception("could not register the command menus")
        await service.startup()
        if handle_signals:
            _stop_on_signals(app, sender, limiter, drawing)
        log.info("kwx bot @%s running (database %s)", app.bot.username, opened.path)

    async def post_shutdown(app: KwxApplication) -> None:
        while webapps:
            await webapps.pop().close_streams()
        while servers:
            await servers.pop().cleanup()
        service = app.bot_data.stop()
        if service is not None:
            await service.shutdown()
            close = getattr(service.present.pictures, "close", None)
            if callable(close):
                close()
            await _keep_group_writes(service.store, settings.bot_id, budget)
        while owned:
            await owned.pop().close()
        while locks:
            await locks.pop().release()

    processor = PerChatProcessor(liveness=liveness, metrics=metrics)
    builder = builder.concurrent_updates(processor).post_init(post_init).post_shutdown(post_shutdown)
    app = cast(KwxApplication, builder.context_types(CONTEXT_TYPES).build())
    register(app)
    return app
