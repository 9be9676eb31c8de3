"""Schema migrations, applied in order by ``PRAGMA user_version`` (docs/architecture.md §4, docs/telegram.md §5).

``MIGRATIONS[i]`` brings the schema from version ``i`` to ``i + 1``.  Each migration is a tuple of
single SQL statements (no ``executescript``: it would commit mid-transaction), run together with the
version bump in one ``BEGIN IMMEDIATE`` transaction, so a failing migration leaves no trace.
Never edit a released migration; append a new one.

Schema (version 1):

* ``users``    one row per Telegram user seen; ``can_pm`` = the bot may message the user privately
  (set by ``/start``, cleared by a 403); ``pending_table_id`` = a join waiting for ``/start``.
* ``chats``    our own stable ``group_id`` per group; ``chat_id`` is the current Telegram id (it
  changes on a group -> supergroup migration, the old id goes to ``chat_aliases``).
* ``settings`` per-group key -> JSON value (language, rules, timers, season).
* ``tables``   a table in a group: ``status`` lobby | playing | between | closed; at most one
  non-closed table per group (partial unique index).  ``seq`` = seq of its last event.
  ``join_token`` (version 2) = the random secret of the table's join links.  ``table_digest``
  (version 3) = what the live table message showed when the bot last stopped cleanly.
  ``deadline_*`` = the pending timer (unix seconds), re-armed after a restart.  ``announced_seq`` =
  the last event whose group announcement (hand start, 亮倒 reveal, result) was sent, so a restart
  between a commit and its announcement still announces.
* ``seats``    who sits where (``seat`` = the chair, 0..3 since version 4); ``active`` is 1 while
  the table is open, so a partial unique index keeps a user at one open table at a time.  ``user_id`` NULL = an AI seat.
* ``hands``    one row per dealt hand: the deal (seed or prepared wall), result JSON; ``sitting_out``
  (version 4) = the member who sat out the hand at a table of four members and three seats.
* ``events``   append-only engine events keyed ``(table_id, seq)``: a double-tapped button cannot
  fork a game, and UPDATE/DELETE are refused by triggers.
* ``ledger``   append-only points per seat per hand, zero-sum per (hand, kind); corrections are
  compensating rows.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]

_V1: tuple[str, ...] = (
    """CREATE TABLE users (
        user_id          INTEGER PRIMARY KEY,
        first_name       TEXT NOT NULL DEFAULT '',
        last_name        TEXT,
        username         TEXT,
        language_code    TEXT,
        can_pm           INTEGER NOT NULL DEFAULT 0,
        pending_table_id INTEGER,
        pending_at       REAL,
        updated_at       REAL NOT NULL
    ) STRICT""",
    """CREATE TABLE chats (
        group_id   INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id    INTEGER NOT NULL UNIQUE,
        title      TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL
    ) STRICT""",
    """CREATE TABLE chat_aliases (
        old_chat_id INTEGER PRIMARY KEY,
        group_id    INTEGER NOT NULL REFERENCES chats(group_id)
    ) STRICT""",
    """CREATE TABLE settings (
        group_id INTEGER NOT NULL REFERENCES chats(group_id),
        key      TEXT NOT NULL,
        value    TEXT NOT NULL,
        PRIMARY KEY (group_id, key)
    ) STRICT""",
    """CREATE TABLE tables (
        table_id      INTEGER PRIMARY KEY AUTOINCREMENT,
        group_id      INTEGER NOT NULL REFERENCES chats(group_id),
        status        TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'between', 'closed')),
        rules         TEXT NOT NULL,
        options       TEXT NOT NULL DEFAULT '{}',
        created_by    INTEGER,
        created_at    REAL NOT NULL,
        updated_at    REAL NOT NULL,
        seq           INTEGER NOT NULL DEFAULT 0,
        hand_no       INTEGER NOT NULL DEFAULT 0,
        next_dealer   INTEGER,
        next_deal     TEXT,
        lobby_msg_id  INTEGER,
        table_msg_id  INTEGER,
        deadline_at   REAL,
        deadline_seq  INTEGER,
        deadline_kind TEXT,
        announced_seq INTEGER NOT NULL DEFAULT 0,
        closed_reason TEXT
    ) STRICT""",
    "CREATE UNIQUE INDEX tables_one_open_per_group ON tables(group_id) WHERE status != 'closed'",
    """CREATE TABLE seats (
        table_id    INTEGER NOT NULL REFERENCES tables(table_id),
        seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 2),
        user_id     INTEGER REFERENCES users(user_id),
        ai_level    TEXT,
        active      INTEGER NOT NULL DEFAULT 1,
        on_auto     INTEGER NOT NULL DEFAULT 0,
        timeouts    INTEGER NOT NULL DEFAULT 0,
        hand_msg_id INTEGER,
        joined_at   REAL NOT NULL,
        PRIMARY KEY (table_id, seat),
        CHECK ((user_id IS NULL) != (ai_level IS NULL))
    ) STRICT""",
    "CREATE UNIQUE INDEX seats_one_open_table_per_user ON seats(user_id) WHERE active = 1 AND user_id IS NOT NULL",
    """CREATE TABLE hands (
        hand_id    INTEGER PRIMARY KEY AUTOINCREMENT,
        table_id   INTEGER NOT NULL REFERENCES tables(table_id),
        hand_no    INTEGER NOT NULL,
        dealer     INTEGER NOT NULL,
        deal       TEXT NOT NULL,
        first_seq  INTEGER NOT NULL,
        status     TEXT NOT NULL CHECK (status IN ('playing', 'over', 'aborted')),
        result     TEXT,
        started_at REAL NOT NULL,
        ended_at   REAL,
        UNIQUE (table_id, hand_no)
    ) STRICT""",
    """CREATE TABLE events (
        table_id   INTEGER NOT NULL REFERENCES tables(table_id),
        seq        INTEGER NOT NULL,
        hand_id    INTEGER NOT NULL REFERENCES hands(hand_id),
        kind       TEXT NOT NULL,
        data       TEXT NOT NULL,
        actor      INTEGER,
        created_at REAL NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) STRICT, WITHOUT ROWID""",
    "CREATE INDEX events_by_hand ON events(hand_id, seq)",
    """CREATE TRIGGER events_append_only_u BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
    """CREATE TRIGGER events_append_only_d BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
    """CREATE TABLE ledger (
        entry_id   INTEGER PRIMARY KEY AUTOINCREMENT,
        group_id   INTEGER NOT NULL REFERENCES chats(group_id),
        season     INTEGER NOT NULL DEFAULT 1,
        table_id   INTEGER NOT NULL REFERENCES tables(table_id),
        hand_id    INTEGER NOT NULL REFERENCES hands(hand_id),
        seat       INTEGER NOT NULL,
        user_id    INTEGER REFERENCES users(user_id),
        hand_delta INTEGER NOT NULL,
        kong_delta INTEGER NOT NULL,
        delta      INTEGER NOT NULL,
        won        INTEGER NOT NULL DEFAULT 0,
        dealt_in   INTEGER NOT NULL DEFAULT 0,
        multiplier INTEGER NOT NULL DEFAULT 0,
        fans       TEXT NOT NULL DEFAULT '',
        kind       TEXT NOT NULL DEFAULT 'hand' CHECK (kind IN ('hand', 'correction')),
        corrects   INTEGER REFERENCES ledger(entry_id),
        created_at REAL NOT NULL,
        CHECK (delta = hand_delta + kong_delta)
    ) STRICT""",
    "CREATE INDEX ledger_by_group ON ledger(group_id, season, hand_id)",
    """CREATE TRIGGER ledger_append_only_u BEFORE UPDATE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END""",
    """CREATE TRIGGER ledger_append_only_d BEFORE DELETE ON ledger
        BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END""",
)

_V2 = (
    # 1 -> 2: a table's join links carry an unguessable token (not derivable from the table id);
    # open tables of an older database get one here, new tables when they are created.
    "ALTER TABLE tables ADD COLUMN join_token TEXT",
    "UPDATE tables SET join_token = lower(hex(randomblob(12))) WHERE status != 'closed'",
)

_V3 = (
    # 2 -> 3: a press remembered per seat (a repeated or re-delivered press is answered like the
    # first), and what the messages showed at a clean shutdown (a restart does not re-edit them).
    "ALTER TABLE seats ADD COLUMN last_press TEXT",
    "ALTER TABLE seats ADD COLUMN shown_digest TEXT",
    "ALTER TABLE tables ADD COLUMN table_digest TEXT",
)

_V4 = (
    # 3 -> 4: tables of 2, 3 or 4 seats, and four members at a 3-seat table (docs/rules.md §A2.1):
    # a seat number is a chair at the table, 0..3 (SQLite changes a CHECK only by rebuilding the
    # table; nothing references ``seats``, so the rebuild keeps every row as it is).  At a table whose
    # rules seat fewer players than it has members, the chairs past ``rules.players`` sit out the
    # hand; ``hands.sitting_out`` records who sat out each hand (a user id, NULL = nobody).
    """CREATE TABLE seats_v4 (
        table_id     INTEGER NOT NULL REFERENCES tables(table_id),
        seat         INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
        user_id      INTEGER REFERENCES users(user_id),
        ai_level     TEXT,
        active       INTEGER NOT NULL DEFAULT 1,
        on_auto      INTEGER NOT NULL DEFAULT 0,
        timeouts     INTEGER NOT NULL DEFAULT 0,
        hand_msg_id  INTEGER,
        joined_at    REAL NOT NULL,
        last_press   TEXT,
        shown_digest TEXT,
        PRIMARY KEY (table_id, seat),
        CHECK ((user_id IS NULL) != (ai_level IS NULL))
    ) STRICT""",
    "INSERT INTO seats_v4 (table_id, seat, user_id, ai_level, active, on_auto, timeouts, hand_msg_id, joined_at, "
    "last_press, shown_digest) SELECT table_id, seat, user_id, ai_level, active, on_auto, timeouts, hand_msg_id, "
    "joined_at, last_press, shown_digest FROM seats",
    "DROP TABLE seats",
    "ALTER TABLE seats_v4 RENAME TO seats",
    "CREATE UNIQUE INDEX seats_one_open_table_per_user ON seats(user_id) WHERE active = 1 AND user_id IS NOT NULL",
    "ALTER TABLE hands ADD COLUMN sitting_out INTEGER REFERENCES users(user_id)",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4)
SCHEMA_VERSION = len(MIGRATIONS)
