"""Webhook delivery of the fake, as Telegram does it (docs/telegram.md §1.4).

``setWebhook(url, secret_token=, allowed_updates=)`` starts a :class:`WebhookDelivery` (one per
fake); ``deleteWebhook`` (or closing the fake) stops it.  Updates go out one at a time, oldest
first, as JSON with the header ``X-Telegram-Bot-Api-Secret-Token`` (when a secret was set); an
answer 2xx confirms the update, anything else (or a connection error) is kept as
``last_error_message`` for ``getWebhookInfo`` and retried after ``retry_seconds``.  While a webhook is
set, ``getUpdates`` answers 409 Conflict.

Telegram only posts to public ``https://`` URLs; a test serves the bot on ``http://127.0.0.1`` behind
a "reverse proxy": ``fake.webhook_routes[public_prefix] = local_prefix`` rewrites the URL the fake
posts to (``https://kwx.example`` -> ``http://127.0.0.1:8443``, the path kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

import aiohttp

if TYPE_CHECKING:
    from .core import FakeBotAPI

__all__ = ["SECRET_HEADER", "WebhookDelivery"]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
_log = logging.getLogger("fakebot.webhook")


class WebhookDelivery:
    """The task that pushes ``fake``'s queued updates to ``url`` (see the module docstring)."""

    def __init__(self, fake: FakeBotAPI, url: str, secret: str | None, retry_seconds: float = 0.2) -> None:
        self.fake = fake
        self.url = url
        self.secret = secret
        self.retry_seconds = retry_seconds
        self.delivered = 0
        self.last_error_message = ""
        self.last_error_date: int | None = None
        self._task = asyncio.get_running_loop().create_task(self._run())

    def target(self) -> str:
        """The URL actually posted to, after :attr:`FakeBotAPI.webhook_routes`."""
        for public, local in self.fake.webhook_routes.items():
            if self.url.startswith(public):
                return local + self.url[len(public) :]
        return self.url

    async def stop(self) -> None:
        """Stop delivering (an update in flight is not confirmed and stays queued)."""
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _run(self) -> None:
        fake = self.fake
        headers = {"Content-Type": "application/json"}
        if self.secret:
            headers[SECRET_HEADER] = self.secret
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
            while not fake.closed:
                batch = fake._deliverable(1)
                if not batch:
                    await fake._signal.wait(1.0)
                    continue
                update = batch[0]
                error = await self._post(session, update, headers)
                if error is None:
                    fake._delivered_up_to = max(fake._delivered_up_to, update["update_id"])
                    fake.updates = [u for u in fake.updates if u["update_id"] != update["update_id"]]
                    self.delivered += 1
                    fake._signal.fire()
                    continue
                self.last_error_message, self.last_error_date = error, int(fake.clock.time())
                _log.debug("webhook delivery of update %s failed: %s", update["update_id"], error)
                await asyncio.sleep(self.retry_seconds)

    async def _post(
        self, session: aiohttp.ClientSession, update: dict[str, Any], headers: dict[str, str]
    ) -> str | None:
        try:
            async with session.post(self.target(), data=json.dumps(update), headers=headers) as response:
                await response.read()
                if 200 <= response.status < 300:
                    return None
                return f"Wrong response from the webhook: {response.status} {response.reason}"
        except (aiohttp.ClientError, OSError, TimeoutError) as e:
            return f"Connection failed: {type(e).__name__}"
