"""The group's screens: the live table, the lobby and the announcements as values and as plain JSON;
an announcement shows the view it is given — its moment (docs/architecture.md §4 "The screen model")."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

from engine.game import Discarded, event_from_json, replay, spectator_view
from engine.game.scenario import main as play_main
from engine.rules import Ruleset
from kwx_bot.service.screen import GroupFacts, LobbyFacts, lobby_screen, reveal_announcement, table_screen
from kwx_bot.words.i18n import translator

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios"
NAMES = ("Ann", "Ben", "Cat")


def _events(name: str) -> list:
    out = io.StringIO()
    assert play_main([], io.StringIO((SCENARIOS / name).read_text(encoding="utf-8")), out) == 0
    return [event_from_json(e) for e in json.loads(out.getvalue())["events"]]


def test_the_live_table_caption_and_picture_and_its_json() -> None:
    view = spectator_view(replay(_events("h2_one_liangdao.json")[:1]))
    facts = GroupFacts(5, 1, 2, Ruleset.KAWUXING, 3, view, NAMES, "en", (1, 0, -1), "Dan", "ab" * 32)
    screen = table_screen(translator("en"), facts, started=True)
    assert screen.caption.startswith("<b>Hand 2 starts</b>") and "Sitting out this hand: Dan" in screen.caption
    assert screen.picture.totals == (1, 0, -1) and screen.picture.view is view
    data = json.loads(json.dumps(screen.to_json()))
    assert data["caption"] == screen.caption and data["picture"]["key"] == screen.picture.key
    assert all(s["revealed"] == [] for s in data["picture"]["view"]["seats"])  # nobody declared yet
    # a page shows the table's title line above it, as a seat's page does (not in the group's caption)
    assert data["title"] == "" and "Club" not in screen.caption
    titled = table_screen(translator("zh_CN"), replace(facts, title="Club"))
    assert titled.to_json()["title"] == "第2局 · Club" and "Club" not in titled.caption


def test_the_lobby_offers_its_buttons_only_while_open() -> None:
    facts = LobbyFacts(
        5, 0, "Club", ("Ann", None, None), "standard", 1, Ruleset.KAWUXING, 3, 3, "kawuxing", 3, 1, False
    )
    open_ = lobby_screen(translator("en"), facts, "open", chat_link="https://t.me/bot?start=hello")
    assert "Ann" in open_.text and open_.buttons
    assert any(
        k["url"] == "https://t.me/bot?start=hello" for row in open_.to_json()["buttons"] for k in row if "url" in k
    )
    assert lobby_screen(translator("en"), facts, "started", chat_link="x").buttons == ()


def test_a_reveal_announcement_shows_the_view_it_is_given() -> None:
    events = _events("h2_one_liangdao.json")
    declared = next(i for i, e in enumerate(events) if isinstance(e, Discarded) and e.liangdao)
    moment = spectator_view(replay(events[: declared + 1]))
    made = reveal_announcement(translator("en"), moment, 0, NAMES, Ruleset.KAWUXING)
    assert made.picture.view is moment and made.picture.seat == 0
    assert made.caption.startswith("<b>Ann lays down!</b> Waiting on:")
    assert json.loads(json.dumps(made.to_json()))["picture"]["view"]["seats"][0]["liangdao"] is True
