"""Imports point one way (docs/architecture.md §1): kwx_bot -> render -> engine, and kwx_bot -> engine.

`engine` never imports telegram, PIL, aiosqlite or asyncio; `render` never imports telegram or
aiosqlite.  Inside `kwx_bot` the floors point down only:

    entry (__main__)  ->  edge  ->  service  ->  words, store  ->  ground (settings, logs)
    entry (__main__)  ->  playground  ->  ground
    edge (only to start it)  ->  webapp  ->  service  ->  words, store  ->  ground

* the Mini App's server (`kwx_bot/webapp`) is an edge of its own beside the Telegram edge: it reads
  the service's screen values and calls its entry points, never the Telegram edge; the service
  never imports it (what delivery must know of it goes through a port);

* the playground runs the bot as its own process and talks to it only through the fake Bot API:
  it imports nothing of the edge, the service, the words or the store, and nothing of the engine;
* the fake Bot API (top-level `fakebot`) is no floor of the bot: it imports nothing of `kwx_bot`,
  `engine` or `render`, and of `kwx_bot` only the playground imports it (the tests use it too);

* only the Telegram edge (and the entry point) imports `telegram`;
* the service and the words never import the edge; the words never import the service;
* the words may read the store's plain row types (`kwx_bot.store.rows`), nothing else of it;
* the store imports nothing of kwx_bot above the ground;
* no module outside `kwx_bot/store` imports aiosqlite or sqlite3, or contains SQL;
* one way into the engine: of the edge and the service, only `kwx_bot/service/game.py` imports
  `engine` (the AI seam included); the words format engine values on their own;
* a hand's state is opaque outside that door: the bot asks it typed questions there and reads no
  field of it;
* the screen model (`kwx_bot/service/screen`) is pure: nothing it names, directly or through what it
  names, imports asyncio, the store, the edge, or the service's live state, ports or delivery.

Checked statically over every module's import statements (relative imports resolved).

No room too big to hold (docs/architecture.md §1): in engine/, render/ and kwx_bot/ no function or
method past cyclomatic complexity 30 (radon's measure) and no class past 400 lines.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "engine": {"telegram", "PIL", "aiosqlite", "asyncio", "render", "kwx_bot", "httpx", "sqlite3"},
    "render": {"telegram", "aiosqlite", "kwx_bot", "sqlite3", "httpx"},
}

FLOORS = {
    "kwx_bot.__main__": "entry",
    "kwx_bot.edge": "edge",
    "kwx_bot.service": "service",
    "kwx_bot.words": "words",
    "kwx_bot.store": "store",
    "kwx_bot.settings": "ground",
    "kwx_bot.logs": "ground",
    "kwx_bot.playground": "playground",
    "kwx_bot.webapp": "webapp",
    "kwx_bot": "ground",
}
"""Module prefix -> floor (the longest prefix wins)."""
MAY_IMPORT = {
    "entry": {"entry", "edge", "webapp", "service", "words", "store", "ground", "playground"},
    "playground": {"playground", "ground"},
    "edge": {"edge", "webapp", "service", "words", "store", "ground"},
    "webapp": {"webapp", "service", "words", "store", "ground"},
    "service": {"service", "words", "store", "ground"},
    "words": {"words", "ground", "store.rows"},
    "store": {"store", "ground"},
    "ground": {"ground"},
}
"""Which floors a floor may import (``store.rows``: the store's plain row types only)."""
TELEGRAM_FLOORS = {"entry", "edge"}
SQL = re.compile(r"\b(SELECT\s+\S.*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE|PRAGMA\s+\w)")


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, absolute (``from . import x`` counts as ``pkg.x``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)
    return out


def floor_of(module: str) -> str | None:
    """The floor of a kwx_bot module (``store.rows`` for the store's row types), None outside kwx_bot."""
    if module == "kwx_bot.store.rows" or module.startswith("kwx_bot.store.rows."):
        return "store.rows"
    best = max((p for p in FLOORS if module == p or module.startswith(p + ".")), key=len, default=None)
    return None if best is None else FLOORS[best]


def allowed(source: str, target: str) -> bool:
    may = MAY_IMPORT[source]
    return target in may or (target == "store.rows" and "store" in may)


def kwx_modules() -> list[Path]:
    files = sorted((ROOT / "kwx_bot").rglob("*.py"))
    assert files, "no modules found in kwx_bot/"
    return files


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_imports_point_one_way(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"no modules found in {package}/"
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & FORBIDDEN[package])
        for f in files
        if imported_roots(f) & FORBIDDEN[package]
    }
    assert offenders == {}


def test_every_kwx_bot_module_sits_on_a_floor() -> None:
    loose = [module_name(f) for f in kwx_modules() if floor_of(module_name(f)) is None]
    assert loose == []
    top = sorted(f.name for f in (ROOT / "kwx_bot").glob("*.py"))
    assert top == ["__init__.py", "__main__.py", "logs.py", "settings.py"]
    floors = sorted(d.name for d in (ROOT / "kwx_bot").iterdir() if (d / "__init__.py").exists())
    assert floors == ["edge", "playground", "service", "store", "webapp", "words"]


def test_kwx_bot_floors_import_down_only() -> None:
    offenders = {}
    for f in kwx_modules():
        source = floor_of(module_name(f))
        assert (source is not None and source != "store.rows") or module_name(f) == "kwx_bot.store.rows"
        source = "store" if source == "store.rows" else source
        bad = sorted(m for m in imported_modules(f) if (t := floor_of(m)) is not None and not allowed(source, t))
        if bad:
            offenders[str(f.relative_to(ROOT))] = bad
    assert offenders == {}


def test_only_the_edge_speaks_telegram() -> None:
    offenders = [
        str(f.relative_to(ROOT))
        for f in kwx_modules()
        if "telegram" in imported_roots(f) and floor_of(module_name(f)) not in TELEGRAM_FLOORS
    ]
    assert offenders == []


def test_the_service_serves_no_web() -> None:
    """The service knows nothing of HTTP: the Mini App's server reads it, never the reverse."""
    offenders = [
        str(f.relative_to(ROOT))
        for f in kwx_modules()
        if floor_of(module_name(f)) in ("service", "words", "store") and "aiohttp" in imported_roots(f)
    ]
    assert offenders == []


def test_no_sql_and_no_database_driver_outside_the_store() -> None:
    offenders = {}
    for f in kwx_modules():
        if module_name(f).startswith("kwx_bot.store"):
            continue
        drivers = imported_roots(f) & {"aiosqlite", "sqlite3"}
        sql = SQL.findall(f.read_text(encoding="utf-8"))
        if drivers or sql:
            offenders[str(f.relative_to(ROOT))] = sorted(drivers) + sql
    assert offenders == {}


def test_one_door_into_the_engine() -> None:
    doors = {"kwx_bot.service.game"}
    offenders = [
        module_name(f)
        for f in kwx_modules()
        if floor_of(module_name(f)) in ("edge", "service")
        and "engine" in imported_roots(f)
        and module_name(f) not in doors
    ]
    assert offenders == []


def test_the_fake_bot_api_is_no_part_of_the_bot() -> None:
    files = sorted((ROOT / "fakebot").rglob("*.py"))
    assert len(files) > 5, "the fake Bot API is the top-level package fakebot/"
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & {"kwx_bot", "engine", "render"})
        for f in files
        if imported_roots(f) & {"kwx_bot", "engine", "render"}
    }
    assert offenders == {}
    users = sorted(module_name(f) for f in kwx_modules() if "fakebot" in imported_roots(f))
    assert users and all(floor_of(m) == "playground" for m in users), users
    assert not (ROOT / "tests" / "fakebot" / "core.py").exists(), "one fake, no copy left in tests/"


def test_the_playground_reaches_the_bot_only_through_the_fake() -> None:
    files = sorted((ROOT / "kwx_bot" / "playground").rglob("*.py"))
    assert files
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & {"engine", "render", "telegram"})
        for f in files
        if imported_roots(f) & {"engine", "render", "telegram"}
    }
    assert offenders == {}


def test_the_checker_sees_forbidden_imports(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("import asyncio\nfrom PIL import Image\nfrom .x import y\n", encoding="utf-8")
    assert imported_roots(sample) == {"asyncio", "PIL"}


def test_the_floor_checker_resolves_relative_imports_and_refuses_upward_ones() -> None:
    service_play = ROOT / "kwx_bot" / "service" / "play.py"
    assert "kwx_bot.service.game" in imported_modules(service_play)
    assert floor_of("kwx_bot.edge.sender") == "edge" and floor_of("kwx_bot.store.rows") == "store.rows"
    assert not allowed("service", "edge") and not allowed("words", "service") and not allowed("words", "store")
    assert allowed("words", "store.rows") and allowed("edge", "service")
    assert SQL.search('"SELECT h.hand_id FROM hands h"') and not SQL.search("select a tile from the wall")


EVOLVE_MAY_NOT = ("engine.game.checks", "engine.game.claims", "engine.game.legal", "engine.scoring", "engine.fans")
"""What ``evolve`` may not import (docs/architecture.md §2 "decide / evolve"): it applies the facts of
stored events and asks no rule, so a stored hand replays the same whatever the rule code becomes."""
RULE_MODULES = ("engine.game.checks", "engine.game.claims", "engine.game.legal", "engine.game.decide")
"""The rule checks of the state machine, which nothing ``evolve`` loads may import either."""


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def engine_file(module: str) -> Path | None:
    """The file of an ``engine`` module; None for a package or a name that is no module of the
    repository (a class or function imported from one)."""
    path = ROOT.joinpath(*module.split(".")).with_suffix(".py")
    return path if module.startswith("engine.") and path.is_file() else None


def engine_imports_from(path: Path) -> set[str]:
    """Every ``engine`` module whose code importing ``path`` uses, transitively: each import's module
    (packages' ``__init__`` left out: they gather names, the code does not depend on them)."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        for module in imported_modules(todo.pop()):
            found = engine_file(module)
            if found is not None and module not in seen:
                seen.add(module)
                todo.append(found)
    return seen


def test_evolve_asks_no_rule() -> None:
    evolve = ROOT / "engine" / "game" / "evolve.py"
    direct = sorted(m for m in imported_modules(evolve) if _within(m, EVOLVE_MAY_NOT))
    assert direct == []
    loaded = engine_imports_from(evolve)
    assert "engine.game.events" in loaded and "engine.game.hands" in loaded  # the walk does follow imports
    assert sorted(m for m in loaded if _within(m, RULE_MODULES)) == []


def test_the_evolve_checker_sees_a_rule_import() -> None:
    decide = ROOT / "engine" / "game" / "decide.py"
    assert [m for m in imported_modules(decide) if _within(m, EVOLVE_MAY_NOT)]
    assert "engine.game.checks" in engine_imports_from(decide)


def _kwx_file(module: str) -> Path | None:
    """The file of a kwx_bot module (a package's ``__init__.py``), None if it is not one."""
    path = ROOT.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def named_modules(path: Path) -> set[str]:
    """The modules ``path``'s import statements name: ``from pkg import mod`` names ``pkg.mod`` when
    that is a module of kwx_bot, else ``pkg``; absolute names otherwise as written."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                out.add(sub if _kwx_file(sub) is not None else module)
    return out


def kwx_reach(start: Path) -> dict[str, set[str]]:
    """Every kwx_bot module ``start`` names, directly or through the modules it names: module -> the
    modules it names."""
    seen: dict[str, set[str]] = {}
    todo = [start]
    while todo:
        path = todo.pop()
        name = module_name(path)
        if name in seen:
            continue
        seen[name] = named_modules(path)
        todo.extend(f for m in seen[name] if m.startswith("kwx_bot.") and (f := _kwx_file(m)) is not None)
    return seen


SCREEN_MAY_NOT = ("asyncio", "telegram", "aiosqlite", "kwx_bot.store", "kwx_bot.edge")
SCREEN_MAY_NOT_SERVICE = ("live", "ports", "outbox", "tables", "present", "delivery", "screens", "pictures")


def test_the_screen_model_is_pure() -> None:
    """The screen values (docs/architecture.md §4 "The screen model") load nothing that waits, sends or
    stores: no asyncio, no store, no edge, none of the service's live state or delivery."""
    files = sorted((ROOT / "kwx_bot" / "service" / "screen").glob("*.py"))
    assert files
    banned = SCREEN_MAY_NOT + tuple(f"kwx_bot.service.{m}" for m in SCREEN_MAY_NOT_SERVICE)
    for path in files:
        reach = kwx_reach(path)
        if path.name == "seat.py":  # the walk follows imports: keyboards -> reveal
            assert {"kwx_bot.service.keyboards", "kwx_bot.service.reveal"} <= set(reach)
        offenders = {
            source: sorted(m for m in imports if _within(m, banned) and not _within(m, ("kwx_bot.store.rows",)))
            for source, imports in reach.items()
        }
        assert {k: v for k, v in offenders.items() if v} == {}, path


STATE_NAMES = frozenset({"state", "new_state"})
"""What the bot calls a hand's :class:`engine.game.State` (a variable, or ``live.state``)."""
STATE_READS_LEFT: dict[str, frozenset[str] | None] = {}
"""Code still reading a State's fields (a whole module: None, else the functions): none."""


def state_reads(path: Path) -> list[tuple[str, int, str]]:
    """``(function, line, field)`` of every read of a :class:`engine.game.State` field (or method)
    in ``path``: an attribute of a name in :data:`STATE_NAMES` or of an attribute ``.state``."""
    from engine.game.state import State

    fields = {f.name for f in dataclasses.fields(State)} | {n for n in vars(State) if not n.startswith("_")}
    out: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.Attribute) and node.attr in fields:
            owner = node.value
            if (isinstance(owner, ast.Name) and owner.id in STATE_NAMES) or (
                isinstance(owner, ast.Attribute) and owner.attr == "state"
            ):
                out.append((function, node.lineno, node.attr))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


def test_hand_states_are_opaque_outside_the_engine_door() -> None:
    """The bot asks a hand's State typed questions through ``service/game.py`` (its module docstring,
    docs/architecture.md §4) and never reads its fields."""
    offenders: dict[str, list[tuple[str, int, str]]] = {}
    for f in kwx_modules():
        name = str(f.relative_to(ROOT))
        if name == "kwx_bot/service/game.py":
            continue
        left = STATE_READS_LEFT.get(name, frozenset())
        reads = [r for r in state_reads(f) if left is not None and r[0] not in left]
        if reads:
            offenders[name] = reads
    assert offenders == {}


def test_the_state_read_checker_sees_a_read(tmp_path: Path) -> None:
    sample = tmp_path / "m.py"
    sample.write_text("def f(live, state):\n    return live.state.turn, state.to_act(), state.seats, live.row\n")
    assert state_reads(sample) == [("f", 2, "turn"), ("f", 2, "to_act"), ("f", 2, "seats")]
    assert len(state_reads(ROOT / "kwx_bot" / "service" / "game.py")) > 5


# --- size: no function past complexity 30, no class past 400 lines --------------------------------

MAX_COMPLEXITY = 30
MAX_CLASS_LINES = 400
SIZED = ("engine", "render", "kwx_bot")
OVER_COMPLEXITY_TODAY: dict[str, int] = {}
"""Known exceptions, each to be split and then struck from here (never added to): none left."""


def _sized_files() -> list[Path]:
    return sorted(p for package in SIZED for p in (ROOT / package).rglob("*.py"))


def _complexities(path: Path, root: Path = ROOT) -> dict[str, int]:
    """``"dir/file.py:Class.method"`` -> radon's cyclomatic complexity, for every function."""
    rel = path.relative_to(root).as_posix()
    out: dict[str, int] = {}
    for block in cc_visit(path.read_text(encoding="utf-8")):
        if block.letter == "C":  # a class's figure is its methods' mean; its methods are listed too
            continue
        out[f"{rel}:{block.fullname}"] = block.complexity
    return out


def _long_classes(path: Path, limit: int, root: Path = ROOT) -> dict[str, int]:
    """``"dir/file.py:Class"`` -> its length in lines (``class`` line to its last line), if over ``limit``."""
    rel = path.relative_to(root).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        f"{rel}:{node.name}": length
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and (length := (node.end_lineno or node.lineno) - node.lineno + 1) > limit
    }


def test_no_function_past_complexity_30() -> None:
    over = {
        name: value for path in _sized_files() for name, value in _complexities(path).items() if value > MAX_COMPLEXITY
    }
    new = {name: value for name, value in over.items() if name not in OVER_COMPLEXITY_TODAY}
    assert not new, f"functions past complexity {MAX_COMPLEXITY}: {new}"
    grown = {n: v for n, v in over.items() if n in OVER_COMPLEXITY_TODAY and v > OVER_COMPLEXITY_TODAY[n]}
    assert not grown, f"known exceptions grew: {grown}"
    fixed = set(OVER_COMPLEXITY_TODAY) - set(over)
    assert not fixed, f"no longer over the bar, strike them from OVER_COMPLEXITY_TODAY: {fixed}"


def test_no_class_past_400_lines() -> None:
    long = {name: n for path in _sized_files() for name, n in _long_classes(path, MAX_CLASS_LINES).items()}
    assert not long, f"classes past {MAX_CLASS_LINES} lines: {long}"


def test_the_size_checkers_see_a_big_function_and_a_long_class(tmp_path: Path) -> None:
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(31))
    body = "".join(f"    a{i} = {i}\n" for i in range(400))
    source = tmp_path / "big.py"
    source.write_text(f"def f(x):\n{branches}    return -1\n\n\nclass C:\n{body}")
    assert _complexities(source, tmp_path) == {"big.py:f": 32}
    assert _long_classes(source, MAX_CLASS_LINES, tmp_path) == {"big.py:C": 401}
    assert _long_classes(source, 401, tmp_path) == {}


PUBLIC_APIS = ("engine", "render", "kwx_bot", "fakebot")


def _private_imports(path: Path, root: Path = ROOT) -> list[str]:
    """``"dir/file.py: module._name"`` for each ``_private`` name imported from another module (a
    module's own helpers stay inside it: docs/architecture.md §1)."""
    rel = path.relative_to(root).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{rel}: {'.' * node.level}{node.module or ''}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_module_imports_another_modules_private_names() -> None:
    found = [
        f for package in PUBLIC_APIS for path in sorted((ROOT / package).rglob("*.py")) for f in _private_imports(path)
    ]
    assert found == []


def test_the_private_import_checker_sees_one(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from .blocks import _badge, draw_meld\nfrom __future__ import annotations\n")
    assert _private_imports(source, tmp_path) == ["m.py: .blocks._badge"]
