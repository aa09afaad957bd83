"""The schema, as an ordered list of migration steps, each written for SQLite and PostgreSQL.

Both backends reach the same logical schema at each version: the same tables, columns, keys and
indexes, in each database's own types (SQLite's INTEGER and REAL are BIGINT and DOUBLE PRECISION
in PostgreSQL; ``tests/store/test_migrations.py`` compares the two). Steps are append-only: a
released step is never edited, a change is a new step with its statements for both backends.

The schema version is SQLite's ``PRAGMA user_version`` and, in PostgreSQL, the highest row of
``schema_version`` (one row per applied step): 0 for an empty database, ``n`` after step ``n``.
Each step runs in its own transaction together with the version bump, so a crash mid-migration
leaves the previous version intact; two processes starting at once migrate once (SQLite's write
lock; a PostgreSQL advisory lock).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import aiosqlite
import asyncpg

from bot.storage.errors import SchemaTooNewError


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    sqlite: tuple[str, ...]
    postgresql: tuple[str, ...]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "tables, move log, seat claims, player names, ledger (T12), stats",
        sqlite=(
            """
            CREATE TABLE tables (
                id INTEGER PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
                host_id INTEGER NOT NULL,
                options TEXT NOT NULL,
                seats TEXT NOT NULL,
                message_id INTEGER,
                state TEXT,
                seed INTEGER,
                counter INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                lobby_expires_at REAL
            )
            """,
            # one lobby or game per channel; also the index start-up scans for live tables
            """
            CREATE UNIQUE INDEX tables_live_channel ON tables (channel_id)
                WHERE status IN ('lobby', 'playing')
            """,
            """
            CREATE INDEX tables_lobby_expiry ON tables (lobby_expires_at)
                WHERE status = 'lobby' AND lobby_expires_at IS NOT NULL
            """,
            """
            CREATE TABLE moves (
                table_id INTEGER NOT NULL REFERENCES tables (id),
                seq INTEGER NOT NULL,
                player_id INTEGER NOT NULL,
                move TEXT NOT NULL,
                events TEXT NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (table_id, seq)
            ) WITHOUT ROWID
            """,
            # a row exists while a (human) player sits at a live table: the primary key is the
            # one-table-per-player-per-server rule, enforced even across channels
            """
            CREATE TABLE seat_claims (
                guild_id INTEGER NOT NULL,
                player_id INTEGER NOT NULL,
                table_id INTEGER NOT NULL REFERENCES tables (id),
                PRIMARY KEY (guild_id, player_id)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX seat_claims_table ON seat_claims (table_id)",
            """
            CREATE TABLE player_names (
                guild_id INTEGER NOT NULL,
                player_id INTEGER NOT NULL,
                name TEXT NOT NULL,
                is_computer INTEGER NOT NULL DEFAULT 0,
                updated_at REAL NOT NULL,
                PRIMARY KEY (guild_id, player_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE ledger (
                id INTEGER PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                table_id INTEGER NOT NULL REFERENCES tables (id),
                hand_no INTEGER NOT NULL,
                payer_id INTEGER NOT NULL,
                payee_id INTEGER NOT NULL,
                amount INTEGER NOT NULL CHECK (amount > 0),
                reason TEXT NOT NULL,
                created_at REAL NOT NULL,
                CHECK (payer_id <> payee_id),
                UNIQUE (table_id, hand_no, payer_id, payee_id, reason)
            )
            """,
            "CREATE INDEX ledger_guild_payer ON ledger (guild_id, payer_id, amount)",
            "CREATE INDEX ledger_guild_payee ON ledger (guild_id, payee_id, amount)",
            # counters per table so standings can be limited to one table; a server's figures
            # are the sums over its tables
            """
            CREATE TABLE stats (
                guild_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                player_id INTEGER NOT NULL,
                table_id INTEGER NOT NULL REFERENCES tables (id),
                counter TEXT NOT NULL,
                value INTEGER NOT NULL,
                PRIMARY KEY (guild_id, kind, player_id, table_id, counter)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX stats_table ON stats (table_id)",
        ),
        postgresql=(
            """
            CREATE TABLE tables (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                channel_id BIGINT NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
                host_id BIGINT NOT NULL,
                options TEXT NOT NULL,
                seats TEXT NOT NULL,
                message_id BIGINT,
                state TEXT,
                seed BIGINT,
                counter BIGINT NOT NULL DEFAULT 0,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL,
                lobby_expires_at DOUBLE PRECISION
            )
            """,
            """
            CREATE UNIQUE INDEX tables_live_channel ON tables (channel_id)
                WHERE status IN ('lobby', 'playing')
            """,
            """
            CREATE INDEX tables_lobby_expiry ON tables (lobby_expires_at)
                WHERE status = 'lobby' AND lobby_expires_at IS NOT NULL
            """,
            """
            CREATE TABLE moves (
                table_id BIGINT NOT NULL REFERENCES tables (id),
                seq BIGINT NOT NULL,
                player_id BIGINT NOT NULL,
                move TEXT NOT NULL,
                events TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (table_id, seq)
            )
            """,
            """
            CREATE TABLE seat_claims (
                guild_id BIGINT NOT NULL,
                player_id BIGINT NOT NULL,
                table_id BIGINT NOT NULL REFERENCES tables (id),
                PRIMARY KEY (guild_id, player_id)
            )
            """,
            "CREATE INDEX seat_claims_table ON seat_claims (table_id)",
            """
            CREATE TABLE player_names (
                guild_id BIGINT NOT NULL,
                player_id BIGINT NOT NULL,
                name TEXT NOT NULL,
                is_computer BIGINT NOT NULL DEFAULT 0,
                updated_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (guild_id, player_id)
            )
            """,
            """
            CREATE TABLE ledger (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                table_id BIGINT NOT NULL REFERENCES tables (id),
                hand_no BIGINT NOT NULL,
                payer_id BIGINT NOT NULL,
                payee_id BIGINT NOT NULL,
                amount BIGINT NOT NULL CHECK (amount > 0),
                reason TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                CHECK (payer_id <> payee_id),
                UNIQUE (table_id, hand_no, payer_id, payee_id, reason)
            )
            """,
            "CREATE INDEX ledger_guild_payer ON ledger (guild_id, payer_id, amount)",
            "CREATE INDEX ledger_guild_payee ON ledger (guild_id, payee_id, amount)",
            """
            CREATE TABLE stats (
                guild_id BIGINT NOT NULL,
                kind TEXT NOT NULL,
                player_id BIGINT NOT NULL,
                table_id BIGINT NOT NULL REFERENCES tables (id),
                counter TEXT NOT NULL,
                value BIGINT NOT NULL,
                PRIMARY KEY (guild_id, kind, player_id, table_id, counter)
            )
            """,
            "CREATE INDEX stats_table ON stats (table_id)",
        ),
    ),
    Migration(
        2,
        "turn timers (issue 8): turn length, stored deadline and the move it was set against",
        sqlite=(
            "ALTER TABLE tables ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE tables ADD COLUMN turn_deadline REAL",
            "ALTER TABLE tables ADD COLUMN deadline_counter INTEGER",
            """
            CREATE INDEX tables_turn_deadline ON tables (turn_deadline)
                WHERE turn_deadline IS NOT NULL
            """,
        ),
        postgresql=(
            "ALTER TABLE tables ADD COLUMN turn_seconds BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE tables ADD COLUMN turn_deadline DOUBLE PRECISION",
            "ALTER TABLE tables ADD COLUMN deadline_counter BIGINT",
            """
            CREATE INDEX tables_turn_deadline ON tables (turn_deadline)
                WHERE turn_deadline IS NOT NULL
            """,
        ),
    ),
    Migration(
        3,
        "start-up lists live tables from an index of them alone, not a scan of all history",
        sqlite=(
            "CREATE INDEX tables_live ON tables (id) WHERE status IN ('lobby', 'playing')",
        ),
        postgresql=(
            "CREATE INDEX tables_live ON tables (id) WHERE status IN ('lobby', 'playing')",
        ),
    ),
    Migration(
        4,
        "the ledger is any game's: each row names its game, and balances are read per game",
        sqlite=(
            "ALTER TABLE ledger ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
            "UPDATE ledger SET kind = (SELECT t.kind FROM tables t WHERE t.id = ledger.table_id)",
            "CREATE INDEX ledger_guild_kind ON ledger (guild_id, kind)",
        ),
        postgresql=(
            "ALTER TABLE ledger ADD COLUMN kind TEXT NOT NULL DEFAULT ''",
            "UPDATE ledger SET kind = (SELECT t.kind FROM tables t WHERE t.id = ledger.table_id)",
            "CREATE INDEX ledger_guild_kind ON ledger (guild_id, kind)",
        ),
    ),
    Migration(
        5,
        "server and player settings, ledger seasons, a table's language, its ping, how it "
        "closed, and which version of it its message last showed",
        sqlite=(
            # every change to what a table shows bumps version; the publisher records the
            # version the message shows, so start-up redraws exactly the tables left behind
            "ALTER TABLE tables ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE tables ADD COLUMN shown_version INTEGER",
            # the person whose turn the table message pinged (a turn is pinged once)
            "ALTER TABLE tables ADD COLUMN pinged INTEGER",
            # whose turn it is, so start-up finds the computers to wake without loading games
            "ALTER TABLE tables ADD COLUMN to_move INTEGER",
            """
            CREATE INDEX tables_computer_turn ON tables (id)
                WHERE status = 'playing' AND to_move < 0
            """,
            "ALTER TABLE tables ADD COLUMN locale TEXT",
            "ALTER TABLE tables ADD COLUMN closed_note TEXT",
            # tables already in the database were shown when they were last written
            "UPDATE tables SET shown_version = 0",
            """
            CREATE INDEX tables_behind ON tables (updated_at)
                WHERE message_id IS NOT NULL AND shown_version IS NOT version
            """,
            """
            CREATE INDEX tables_history ON tables (guild_id, kind, id)
                WHERE status IN ('finished', 'cancelled')
            """,
            "ALTER TABLE ledger ADD COLUMN season INTEGER NOT NULL DEFAULT 1",
            "DROP INDEX ledger_guild_kind",
            "CREATE INDEX ledger_guild_kind ON ledger (guild_id, kind, season)",
            """
            CREATE TABLE seasons (
                guild_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                season INTEGER NOT NULL CHECK (season > 1),
                started_at REAL NOT NULL,
                started_by INTEGER NOT NULL,
                PRIMARY KEY (guild_id, kind, season)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE guild_settings (
                guild_id INTEGER PRIMARY KEY,
                settings TEXT NOT NULL,
                updated_at REAL NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE user_settings (
                user_id INTEGER PRIMARY KEY,
                settings TEXT NOT NULL,
                updated_at REAL NOT NULL
            ) WITHOUT ROWID
            """,
        ),
        postgresql=(
            "ALTER TABLE tables ADD COLUMN version BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE tables ADD COLUMN shown_version BIGINT",
            "ALTER TABLE tables ADD COLUMN pinged BIGINT",
            "ALTER TABLE tables ADD COLUMN to_move BIGINT",
            """
            CREATE INDEX tables_computer_turn ON tables (id)
                WHERE status = 'playing' AND to_move < 0
            """,
            "ALTER TABLE tables ADD COLUMN locale TEXT",
            "ALTER TABLE tables ADD COLUMN closed_note TEXT",
            "UPDATE tables SET shown_version = 0",
            """
            CREATE INDEX tables_behind ON tables (updated_at)
                WHERE message_id IS NOT NULL AND shown_version IS DISTINCT FROM version
            """,
            """
            CREATE INDEX tables_history ON tables (guild_id, kind, id)
                WHERE status IN ('finished', 'cancelled')
            """,
            "ALTER TABLE ledger ADD COLUMN season BIGINT NOT NULL DEFAULT 1",
            "DROP INDEX ledger_guild_kind",
            "CREATE INDEX ledger_guild_kind ON ledger (guild_id, kind, season)",
            """
            CREATE TABLE seasons (
                guild_id BIGINT NOT NULL,
                kind TEXT NOT NULL,
                season BIGINT NOT NULL CHECK (season > 1),
                started_at DOUBLE PRECISION NOT NULL,
                started_by BIGINT NOT NULL,
                PRIMARY KEY (guild_id, kind, season)
            )
            """,
            """
            CREATE TABLE guild_settings (
                guild_id BIGINT PRIMARY KEY,
                settings TEXT NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE user_settings (
                user_id BIGINT PRIMARY KEY,
                settings TEXT NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
        ),
    ),
    Migration(
        6,
        "committed deals (a table's deal secret) and the ledger's hash chain per server",
        sqlite=(
            # {"version", "table", "master"}: the secret every hand's key is derived from
            "ALTER TABLE tables ADD COLUMN deals TEXT",
            # each row's place in its server's chain and its digest (bot.storage.chain);
            # rows written before this step are chained on the server's next payment
            "ALTER TABLE ledger ADD COLUMN chain_seq INTEGER",
            "ALTER TABLE ledger ADD COLUMN digest TEXT",
            "CREATE UNIQUE INDEX ledger_chain ON ledger (guild_id, chain_seq)",
            # the newest link of each server's chain, so a cut-off tail is caught too
            """
            CREATE TABLE ledger_heads (
                guild_id INTEGER PRIMARY KEY,
                seq INTEGER NOT NULL,
                digest TEXT NOT NULL
            ) WITHOUT ROWID
            """,
        ),
        postgresql=(
            "ALTER TABLE tables ADD COLUMN deals TEXT",
            "ALTER TABLE ledger ADD COLUMN chain_seq BIGINT",
            "ALTER TABLE ledger ADD COLUMN digest TEXT",
            "CREATE UNIQUE INDEX ledger_chain ON ledger (guild_id, chain_seq)",
            """
            CREATE TABLE ledger_heads (
                guild_id BIGINT PRIMARY KEY,
                seq BIGINT NOT NULL,
                digest TEXT NOT NULL
            )
            """,
        ),
    ),
    Migration(
        7,
        "skill ratings (issue 33): a table's rated flag, each rated table's result, every "
        "player's rating change at it, and the ratings as they stand",
        sqlite=(
            # the host's choice when the lobby opened; tables from before count as rated
            "ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 1",
            # derived data, rebuilt from the move log by `python -m bot.ops rerate`
            """
            CREATE TABLE rated_tables (
                table_id INTEGER PRIMARY KEY REFERENCES tables (id),
                guild_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                season INTEGER NOT NULL,
                ended_at REAL NOT NULL,
                players INTEGER NOT NULL
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE rating_changes (
                table_id INTEGER NOT NULL REFERENCES tables (id),
                player_id INTEGER NOT NULL,
                guild_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                season INTEGER NOT NULL,
                place INTEGER NOT NULL,
                mu_before REAL NOT NULL,
                sigma_before REAL NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                ended_at REAL NOT NULL,
                PRIMARY KEY (table_id, player_id)
            ) WITHOUT ROWID
            """,
            # a profile's history: one player's changes in one server, game and season
            """
            CREATE INDEX rating_changes_player ON rating_changes
                (guild_id, kind, season, player_id, ended_at)
            """,
            """
            CREATE TABLE ratings (
                guild_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                season INTEGER NOT NULL,
                player_id INTEGER NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                ordinal REAL NOT NULL,
                games INTEGER NOT NULL,
                firsts INTEGER NOT NULL,
                lasts INTEGER NOT NULL,
                PRIMARY KEY (guild_id, kind, season, player_id)
            ) WITHOUT ROWID
            """,
            # the leaderboard reads a season's ratings best first
            "CREATE INDEX ratings_board ON ratings (guild_id, kind, season, ordinal)",
        ),
        postgresql=(
            "ALTER TABLE tables ADD COLUMN rated BIGINT NOT NULL DEFAULT 1",
            """
            CREATE TABLE rated_tables (
                table_id BIGINT PRIMARY KEY REFERENCES tables (id),
                guild_id BIGINT NOT NULL,
                kind TEXT NOT NULL,
                season BIGINT NOT NULL,
                ended_at DOUBLE PRECISION NOT NULL,
                players BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE rating_changes (
                table_id BIGINT NOT NULL REFERENCES tables (id),
                player_id BIGINT NOT NULL,
                guild_id BIGINT NOT NULL,
                kind TEXT NOT NULL,
                season BIGINT NOT NULL,
                place BIGINT NOT NULL,
                mu_before DOUBLE PRECISION NOT NULL,
                sigma_before DOUBLE PRECISION NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                ended_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (table_id, player_id)
            )
            """,
            """
            CREATE INDEX rating_changes_player ON rating_changes
                (guild_id, kind, season, player_id, ended_at)
            """,
            """
            CREATE TABLE ratings (
                guild_id BIGINT NOT NULL,
                kind TEXT NOT NULL,
                season BIGINT NOT NULL,
                player_id BIGINT NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                ordinal DOUBLE PRECISION NOT NULL,
                games BIGINT NOT NULL,
                firsts BIGINT NOT NULL,
                lasts BIGINT NOT NULL,
                PRIMARY KEY (guild_id, kind, season, player_id)
            )
            """,
            "CREATE INDEX ratings_board ON ratings (guild_id, kind, season, ordinal)",
        ),
    ),
    Migration(
        8,
        "events: tournaments across tables, their entrants and each round's tables",
        sqlite=(
            # settings: {"rounds", "seats", "hands", "turn_seconds", "tables_in"} as JSON;
            # round: the round in play (0 while registering); announced: the last round whose
            # standings were posted
            """
            CREATE TABLE events (
                id INTEGER PRIMARY KEY,
                guild_id INTEGER NOT NULL,
                channel_id INTEGER NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
                host_id INTEGER NOT NULL,
                settings TEXT NOT NULL,
                round INTEGER NOT NULL DEFAULT 0,
                announced INTEGER NOT NULL DEFAULT 0,
                message_id INTEGER,
                locale TEXT,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            )
            """,
            "CREATE INDEX events_running ON events (id) WHERE status = 'running'",
            "CREATE INDEX events_of_guild ON events (guild_id, kind, id)",
            # seq: the order of registration, the last tie-break of seating and standings
            """
            CREATE TABLE event_players (
                event_id INTEGER NOT NULL REFERENCES events (id),
                player_id INTEGER NOT NULL,
                name TEXT NOT NULL,
                is_computer INTEGER NOT NULL DEFAULT 0,
                seq INTEGER NOT NULL,
                PRIMARY KEY (event_id, player_id)
            ) WITHOUT ROWID
            """,
            # players: the seating (JSON ids in seat order); thread_id and table_id are set as
            # the table comes into being, result once it has ended
            """
            CREATE TABLE event_tables (
                event_id INTEGER NOT NULL REFERENCES events (id),
                round INTEGER NOT NULL,
                table_no INTEGER NOT NULL,
                players TEXT NOT NULL,
                thread_id INTEGER,
                table_id INTEGER REFERENCES tables (id),
                result TEXT,
                PRIMARY KEY (event_id, round, table_no)
            ) WITHOUT ROWID
            """,
            "CREATE UNIQUE INDEX event_tables_table ON event_tables (table_id) "
            "WHERE table_id IS NOT NULL",
        ),
        postgresql=(
            """
            CREATE TABLE events (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                guild_id BIGINT NOT NULL,
                channel_id BIGINT NOT NULL,
                kind TEXT NOT NULL,
                status TEXT NOT NULL
                    CHECK (status IN ('registering', 'running', 'finished', 'cancelled')),
                host_id BIGINT NOT NULL,
                settings TEXT NOT NULL,
                round BIGINT NOT NULL DEFAULT 0,
                announced BIGINT NOT NULL DEFAULT 0,
                message_id BIGINT,
                locale TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX events_running ON events (id) WHERE status = 'running'",
            "CREATE INDEX events_of_guild ON events (guild_id, kind, id)",
            """
            CREATE TABLE event_players (
                event_id BIGINT NOT NULL REFERENCES events (id),
                player_id BIGINT NOT NULL,
                name TEXT NOT NULL,
                is_computer BIGINT NOT NULL DEFAULT 0,
                seq BIGINT NOT NULL,
                PRIMARY KEY (event_id, player_id)
            )
            """,
            """
            CREATE TABLE event_tables (
                event_id BIGINT NOT NULL REFERENCES events (id),
                round BIGINT NOT NULL,
                table_no BIGINT NOT NULL,
                players TEXT NOT NULL,
                thread_id BIGINT,
                table_id BIGINT REFERENCES tables (id),
                result TEXT,
                PRIMARY KEY (event_id, round, table_no)
            )
            """,
            "CREATE UNIQUE INDEX event_tables_table ON event_tables (table_id) "
            "WHERE table_id IS NOT NULL",
        ),
    ),
    Migration(
        9,
        "channel webhooks: the bot's webhook of each channel, and which webhook posted a table",
        sqlite=(
            # message_webhook: the channel webhook that posted the table message (NULL: the
            # bot, or an interaction's follow-up, both of which the bot edits itself)
            "ALTER TABLE tables ADD COLUMN message_webhook INTEGER",
            # the bot's own webhook on a channel (a thread's tables use its parent's); token:
            # what executes it, a credential like the bot's token, never logged
            """
            CREATE TABLE channel_webhooks (
                channel_id INTEGER PRIMARY KEY,
                webhook_id INTEGER NOT NULL,
                token TEXT NOT NULL,
                created_at REAL NOT NULL
            ) WITHOUT ROWID
            """,
        ),
        postgresql=(
            "ALTER TABLE tables ADD COLUMN message_webhook BIGINT",
            """
            CREATE TABLE channel_webhooks (
                channel_id BIGINT PRIMARY KEY,
                webhook_id BIGINT NOT NULL,
                token TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
        ),
    ),
    Migration(
        10,
        "the daily deal: each day's secret, its expert baseline and everyone's attempt",
        sqlite=(
            # secret: the day's deal secret (hex), private until the day is over
            """
            CREATE TABLE daily_days (
                kind TEXT NOT NULL,
                day TEXT NOT NULL,
                secret TEXT NOT NULL,
                commitment TEXT NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (kind, day)
            ) WITHOUT ROWID
            """,
            # one row a day and game: the process that claimed it computes the baseline;
            # outcome is NULL until it is stored
            """
            CREATE TABLE daily_baselines (
                kind TEXT NOT NULL,
                day TEXT NOT NULL,
                claimed_at REAL NOT NULL,
                outcome INTEGER,
                moves TEXT,
                seconds REAL,
                computed_at REAL,
                PRIMARY KEY (kind, day)
            ) WITHOUT ROWID
            """,
            # one attempt a person, game and day; outcome and score once it is over
            """
            CREATE TABLE daily_attempts (
                kind TEXT NOT NULL,
                day TEXT NOT NULL,
                player_id INTEGER NOT NULL,
                guild_id INTEGER NOT NULL,
                name TEXT NOT NULL,
                started_at REAL NOT NULL,
                moves TEXT NOT NULL,
                move_count INTEGER NOT NULL,
                updated_at REAL NOT NULL,
                finished_at REAL,
                how TEXT,
                outcome INTEGER,
                score INTEGER,
                PRIMARY KEY (kind, day, player_id)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX daily_attempts_of_player ON daily_attempts (player_id, kind, day)",
            "CREATE INDEX daily_attempts_open ON daily_attempts (day, kind) "
            "WHERE finished_at IS NULL",
        ),
        postgresql=(
            """
            CREATE TABLE daily_days (
                kind TEXT NOT NULL,
                day TEXT NOT NULL,
                secret TEXT NOT NULL,
                commitment TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (kind, day)
            )
            """,
            """
            CREATE TABLE daily_baselines (
                kind TEXT NOT NULL,
                day TEXT NOT NULL,
                claimed_at DOUBLE PRECISION NOT NULL,
                outcome BIGINT,
                moves TEXT,
                seconds DOUBLE PRECISION,
                computed_at DOUBLE PRECISION,
                PRIMARY KEY (kind, day)
            )
            """,
            """
            CREATE TABLE daily_attempts (
                kind TEXT NOT NULL,
                day TEXT NOT NULL,
                player_id BIGINT NOT NULL,
                guild_id BIGINT NOT NULL,
                name TEXT NOT NULL,
                started_at DOUBLE PRECISION NOT NULL,
                moves TEXT NOT NULL,
                move_count BIGINT NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL,
                finished_at DOUBLE PRECISION,
                how TEXT,
                outcome BIGINT,
                score BIGINT,
                PRIMARY KEY (kind, day, player_id)
            )
            """,
            "CREATE INDEX daily_attempts_of_player ON daily_attempts (player_id, kind, day)",
            "CREATE INDEX daily_attempts_open ON daily_attempts (day, kind) "
            "WHERE finished_at IS NULL",
        ),
    ),
    Migration(
        11,
        "daily boards across servers: which servers opt in, and who hides from every board",
        sqlite=(
            # mirrors the server setting daily_everywhere (its JSON is the source), so that
            # the cross-server board selects the servers that opted in in SQL
            "ALTER TABLE guild_settings ADD COLUMN daily_everywhere INTEGER NOT NULL DEFAULT 0",
            """
            CREATE TABLE daily_hidden (
                player_id INTEGER NOT NULL PRIMARY KEY,
                hidden_at REAL NOT NULL
            ) WITHOUT ROWID
            """,
        ),
        postgresql=(
            "ALTER TABLE guild_settings ADD COLUMN daily_everywhere BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE daily_hidden (
                player_id BIGINT NOT NULL PRIMARY KEY,
                hidden_at DOUBLE PRECISION NOT NULL
            )
            """,
        ),
    ),
    Migration(
        12,
        "strays: where a table's stale messages may still stand until a sweep deletes them",
        sqlite=(
            # strays_from: the table's messages from this id on, but for message_id, may still
            # stand in the channel (a replaced message whose delete waits in the background,
            # a post a killed process never recorded); NULL: none. Start-up sweeps them.
            "ALTER TABLE tables ADD COLUMN strays_from INTEGER",
            "DROP INDEX tables_behind",
            """
            CREATE INDEX tables_behind ON tables (updated_at)
                WHERE message_id IS NOT NULL
                AND (shown_version IS NOT version OR strays_from IS NOT NULL)
            """,
        ),
        postgresql=(
            "ALTER TABLE tables ADD COLUMN strays_from BIGINT",
            "DROP INDEX tables_behind",
            """
            CREATE INDEX tables_behind ON tables (updated_at)
                WHERE message_id IS NOT NULL
                AND (shown_version IS DISTINCT FROM version OR strays_from IS NOT NULL)
            """,
        ),
    ),
    Migration(
        13,
        "a restart edits tables in place and skips the look for strays after a clean stop",
        sqlite=(
            # message_token: the token of the interaction whose follow-up posted the table
            # message, and message_token_at when Discord issued it (its id's time): it edits
            # and deletes that message for 15 minutes, a restart included. A credential, kept
            # only while good: replaced as the message moves, cleared once it is too old.
            "ALTER TABLE tables ADD COLUMN message_token TEXT",
            "ALTER TABLE tables ADD COLUMN message_token_at REAL",
            "CREATE INDEX tables_message_tokens ON tables (message_token_at) "
            "WHERE message_token IS NOT NULL",
            # a process run that may have posted a message of the table it never recorded:
            # claimed at its start (or before its first post of a table), gone when it stops
            # cleanly with every post recorded; a table with none needs no look for strays
            """
            CREATE TABLE posting_runs (
                table_id INTEGER NOT NULL REFERENCES tables (id),
                run_id INTEGER NOT NULL,
                PRIMARY KEY (table_id, run_id)
            ) WITHOUT ROWID
            """,
            "CREATE INDEX posting_runs_of_run ON posting_runs (run_id)",
            # whether the process before the upgrade stopped cleanly is not known: its tables
            # are claimed by run 0, which no stop releases, and looked at as before
            """
            INSERT INTO posting_runs (table_id, run_id) SELECT id, 0 FROM tables
                WHERE message_id IS NOT NULL AND (status IN ('lobby', 'playing')
                OR shown_version IS NOT version OR strays_from IS NOT NULL)
            """,
        ),
        postgresql=(
            "ALTER TABLE tables ADD COLUMN message_token TEXT",
            "ALTER TABLE tables ADD COLUMN message_token_at DOUBLE PRECISION",
            "CREATE INDEX tables_message_tokens ON tables (message_token_at) "
            "WHERE message_token IS NOT NULL",
            """
            CREATE TABLE posting_runs (
                table_id BIGINT NOT NULL REFERENCES tables (id),
                run_id BIGINT NOT NULL,
                PRIMARY KEY (table_id, run_id)
            )
            """,
            "CREATE INDEX posting_runs_of_run ON posting_runs (run_id)",
            """
            INSERT INTO posting_runs (table_id, run_id) SELECT id, 0 FROM tables
                WHERE message_id IS NOT NULL AND (status IN ('lobby', 'playing')
                OR shown_version IS DISTINCT FROM version OR strays_from IS NOT NULL)
            """,
        ),
    ),
    Migration(
        14,
        "events: the last round whose seating was posted",
        sqlite=(
            # seated: the last round whose "who sits where" message was posted: a process
            # killed between opening a round's tables and that post leaves it to the next one.
            # The events of before the upgrade had theirs posted as they went.
            "ALTER TABLE events ADD COLUMN seated INTEGER NOT NULL DEFAULT 0",
            "UPDATE events SET seated = round",
        ),
        postgresql=(
            "ALTER TABLE events ADD COLUMN seated BIGINT NOT NULL DEFAULT 0",
            "UPDATE events SET seated = round",
        ),
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)
"""The newest schema this code understands."""

MIGRATION_LOCK = 0x6B6F7274626F7264
"""The PostgreSQL advisory lock key migrations run under ("kortbord" in ASCII)."""


async def sqlite_schema_version(db: aiosqlite.Connection) -> int:
    rows = list(await db.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def migrate_sqlite(
    db: aiosqlite.Connection,
    path: str,
    *,
    migrations: Sequence[Migration] = MIGRATIONS,
    upto: int | None = None,
) -> int:
    """Bring the SQLite database at ``path`` (open as ``db``, autocommit mode) up to version
    ``upto`` (default: the newest) and return the version it is at. Refuses a database newer
    than ``migrations`` knows."""
    newest = len(migrations)
    target = newest if upto is None else upto
    found = await sqlite_schema_version(db)
    if found > newest:
        raise SchemaTooNewError(path, found, newest)
    for step in migrations[found:target]:
        await db.execute("BEGIN IMMEDIATE")
        try:
            # another process may have migrated while this one waited for the write lock
            if await sqlite_schema_version(db) >= step.version:
                await db.execute("ROLLBACK")
                continue
            for statement in step.sqlite:
                await db.execute(statement)
            await db.execute(f"PRAGMA user_version = {int(step.version)}")
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
    return await sqlite_schema_version(db)


async def postgresql_schema_version(db: asyncpg.Connection) -> int:
    """0 before the first migration (no ``schema_version`` table yet)."""
    exists = await db.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def migrate_postgresql(
    db: asyncpg.Connection,
    where: str,
    *,
    migrations: Sequence[Migration] = MIGRATIONS,
    upto: int | None = None,
) -> int:
    """Bring the PostgreSQL database (connected as ``db``, no transaction open) up to version
    ``upto`` (default: the newest) and return the version it is at. Runs under an advisory lock,
    so a second process starting at the same time waits and then finds the work done. Refuses a
    database newer than ``migrations`` knows."""
    newest = len(migrations)
    target = newest if upto is None else upto
    await db.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
            "description TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        found = await postgresql_schema_version(db)
        if found > newest:
            raise SchemaTooNewError(where, found, newest)
        for step in migrations[found:target]:
            async with db.transaction():
                for statement in step.postgresql:
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_version (version, description) VALUES ($1, $2)",
                    step.version, step.description,
                )
        return await postgresql_schema_version(db)
    finally:
        await db.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
