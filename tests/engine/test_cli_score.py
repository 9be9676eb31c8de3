"""``python -m engine score``: the fixed JSON contract, in-process and as a subprocess."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest

from engine.cli_score import main

OUTPUT_KEYS = {"complete", "legal", "fans", "multiplier", "deltas", "reading"}
KWX = {"concealed": "123p789p234s46s88s", "win_tile": "5s", "win_by": "discard", "winner": 0, "discarder": 1}


def run(stdin_text: str, argv: list[str] | None = None) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv or [], io.StringIO(stdin_text), out)
    return code, out.getvalue()


def run_obj(obj: Any) -> tuple[int, dict[str, Any]]:
    code, text = run(json.dumps(obj, ensure_ascii=False))
    assert text.endswith("\n") and text.count("\n") == 1
    return code, json.loads(text)


def test_readme_example() -> None:
    code, out = run_obj({**KWX, "rules": "standard", "liangdao": [False, True, False]})
    assert code == 0 and set(out) == OUTPUT_KEYS
    assert out == {
        "complete": True,
        "legal": True,
        "fans": ["卡五星", "亮倒"],
        "multiplier": {"1": 4},
        "deltas": [4, -4, 0],
        "reading": "123p 789p 234s 456s 88s",
    }


def test_rules_object_with_values() -> None:
    q = {**KWX, "rules": {"preset": "standard", "cap": "none", "values": {"kawuxing": 4}}}
    code, out = run_obj(q)
    assert code == 0 and out["multiplier"] == {"1": 4} and out["deltas"] == [4, -4, 0]


def test_all_meld_spellings_and_defaults() -> None:
    q = {
        "concealed": "5z",
        "melds": ["pong 111p", "kong 8888p", "concealed_kong 2222s", "added_kong 7777s"],
        "win_tile": "5z",
        "win_by": "self_draw",
    }
    code, out = run_obj(q)
    assert code == 0
    assert out["fans"] == ["手抓一"] and out["multiplier"] == {"1": 4, "2": 4} and out["deltas"] == [8, -4, -4]
    assert out["reading"] == "55z [碰 111p] [直杠 8888p] [暗杠 2222s] [补杠 7777s]"


@pytest.mark.parametrize(
    ("question", "complete", "legal"),
    [
        ({"concealed": "123p456p789p123s5s", "win_tile": "7s", "win_by": "self_draw"}, False, False),
        ({"concealed": "123p456p789p22s5z5z", "win_tile": "2s", "win_by": "discard", "discarder": 2}, True, False),
        ({**KWX, "liangdao": [False]}, True, True),
        ({**KWX, "discarder": None, "win_by": "self_draw"}, True, True),
    ],
)
def test_well_formed_questions_exit_0(question: dict[str, Any], complete: bool, legal: bool) -> None:
    code, out = run_obj(question)
    assert code == 0 and set(out) == OUTPUT_KEYS
    assert (out["complete"], out["legal"]) == (complete, legal)
    if not legal:
        assert out["deltas"] == [0, 0, 0]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty input"),
        ("{not json", "invalid JSON"),
        ("[1, 2]", "must be a JSON object"),
        (json.dumps({**KWX, "concealed": "123x"}), "unknown suit letter"),
        (json.dumps({**KWX, "concealed": "123p789p234s46s8s"}), "has 13 tiles, got 12"),
        (json.dumps({**KWX, "concealed": "55555p89p234s46s8s"}), "5 copies of 5p"),
        (json.dumps({**KWX, "concealed": "1111p789p234s46s8s", "win_tile": "1p"}), "5 copies of 1p"),
        (json.dumps({**KWX, "rules": {"preset": "standard", "capp": "8"}}), "unknown rule option 'capp'"),
        (json.dumps({**KWX, "rules": {"cap": "7"}}), "bad value '7' for rule option 'cap'"),
        (json.dumps({**KWX, "rules": "beijing"}), "unknown rules preset"),
        (json.dumps({**KWX, "win_by": "ron"}), "'win_by' must be one of"),
        (json.dumps({k: v for k, v in KWX.items() if k != "discarder"}), "needs the discarder"),
        (json.dumps({**KWX, "win_by": "self_draw"}), "self-draw has no discarder"),
        (json.dumps({k: v for k, v in KWX.items() if k != "concealed"}), "missing 'concealed'"),
        (json.dumps({**KWX, "liangdao": [False, False, False, False]}), "'liangdao' has 4 entries"),
        (json.dumps({**KWX, "liangdao": [0, 1]}), "'liangdao' must be a list of true/false"),
        (json.dumps({**KWX, "melds": "pong 111p"}), "'melds' must be a list"),
        (json.dumps({**KWX, "melds": ["chow 123p"]}), "unknown meld kind"),
        (json.dumps({**KWX, "win_tile": "5s5s"}), "expected one tile"),
        (json.dumps({**KWX, "winner": True}), "'winner' must be an integer"),
        (json.dumps({**KWX, "after_kong": "yes"}), "'after_kong' must be true or false"),
        (json.dumps({**KWX, "dealer": 0}), "unknown key(s) 'dealer'"),
        (json.dumps({**KWX, "concealed": 123}), "'concealed' must be a string"),
    ],
)
def test_malformed_input_exits_2_with_one_line_error(text: str, fragment: str) -> None:
    code, out = run(text)
    assert code == 2
    assert out.endswith("\n") and out.count("\n") == 1
    error = json.loads(out)
    assert set(error) == {"error"} and fragment in error["error"]


def test_arguments() -> None:
    assert run("", ["--help"])[0] == 0
    code, out = run(json.dumps(KWX), ["extra"])
    assert code == 2 and "no arguments" in json.loads(out)["error"]


def test_subprocess_contract() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    ok = subprocess.run(
        [sys.executable, "-m", "engine", "score"],
        input=json.dumps(KWX).encode(),
        capture_output=True,
        env=env,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout.decode("utf-8"))["fans"] == ["卡五星"]
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "score"],
        input=b'{"concealed": "12"}',
        capture_output=True,
        env=env,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr == b""
    lines = bad.stdout.decode("utf-8").splitlines()
    assert len(lines) == 1 and "error" in json.loads(lines[0])


def test_kaxinwu_rules_and_a_langqi_winner() -> None:
    """卡心五 (docs/rules.md §B): four seats, its own patterns; ``hidden`` and ``waits`` of a 廊起 winner."""
    lqd = {"rules": "kaxinwu", "concealed": "11p22p33p44p55s777s", "win_tile": "7s", "win_by": "self_draw"}
    code, out = run_obj(lqd)
    assert code == 0 and out["fans"] == ["龙七对"] and out["deltas"] == [24, -8, -8, -8]
    code, out = run_obj({**lqd, "hidden": "11p22p33p44p55s77s"})
    assert code == 0 and out["fans"] == ["七对"] and out["deltas"] == [12, -4, -4, -4]
    kxw = {"rules": "kaxinwu", "concealed": "123p456p2245667s", "win_tile": "5s", "win_by": "discard"}
    code, out = run_obj({**kxw, "discarder": 1})
    assert code == 0 and out["fans"] == ["屁胡"] and out["legal"]
    code, out = run_obj({**kxw, "discarder": 1, "waits": "5s"})
    assert code == 0 and out["fans"] == ["卡心五"] and out["deltas"] == [2, -2, 0, 0]
    code, out = run_obj({**kxw, "discarder": 1, "waits": 5})
    assert code == 2 and "'waits' must be a string" in out["error"]


def test_a_robbed_kong_names_the_flags_that_do_not_apply_and_scores_as_without_them() -> None:
    rob = {**KWX, "win_by": "rob_kong"}
    _, plain = run_obj(rob)
    assert set(plain) == OUTPUT_KEYS and "抢杠胡" in plain["fans"]
    code, flagged = run_obj({**rob, "after_kong": True, "last_tile": True})
    assert code == 0 and flagged.pop("ignored") == ["after_kong", "last_tile"]
    assert flagged == plain  # the same score: 杠上炮 and 海底 do not apply to a robbed 补杠
    _, one = run_obj({**rob, "after_kong": True})
    assert one["ignored"] == ["after_kong"]
    # other wins keep the contract's keys exactly
    _, discard = run_obj({**KWX, "after_kong": True})
    assert set(discard) == OUTPUT_KEYS and "杠上炮" in discard["fans"]
