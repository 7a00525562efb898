"""The statements the store runs most, by name, with example parameters. Each must be
answered from an index (``tests/storage/test_store_scale.py`` reads their plans on SQLite,
``tests/storage/test_store_plans_pg.py`` on PostgreSQL at 10,000 games), so none slows down as
finished games pile up; a session runs one through :func:`hot_sql`."""

from __future__ import annotations

from typing import Any

#: The statuses of a game still to be played.
LIVE = ("lobby", "active")


#: The statuses of a game that is over (``Session.set_status`` drops its bot jobs).
ENDED = ("finished", "abandoned", "cancelled")


#: Undelivered outbox rows with their payloads (migration 0009: kept in their own table
#: and deleted on delivery; a row queued before it keeps its payload in the outbox).
_UNDELIVERED = (
    "SELECT o.id, o.game_id, o.kind, o.target, COALESCE(p.payload, o.payload) AS payload,"
    " o.created_at, o.attempts, o.last_error, o.next_attempt_at, o.sent_at"
    " FROM outbox o LEFT JOIN outbox_payloads p ON p.outbox_id = o.id"
    " WHERE o.delivered_at IS NULL"
)


#: How the last error of a table post parked by the courier begins: the channel refuses
#: every post until someone fixes it (``bot.delivery.courier``).
PARKED_ERROR = "table unreachable"


#: The queries run on every action, delivery pass or listing, by name, with example
#: parameters. ``tests/storage/test_store_scale.py`` asserts that SQLite answers each through an
#: index (EXPLAIN QUERY PLAN), so none of them slows down as finished games pile up.
HOT_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "game": ("SELECT * FROM games WHERE id = ?", (1,)),
    "live_game_in_channel": (
        "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
        ("c",),
    ),
    "latest_game_in_channel": (
        "SELECT * FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
        ("c",),
    ),
    "games_of_user": (
        "SELECT g.* FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE s.user_id = ? AND g.status IN ('lobby', 'active') GROUP BY g.id ORDER BY g.id",
        ("u",),
    ),
    # The background pass, every few seconds: only the ids of the games where the user
    # (one of Dispatch's seats) owes a decision, from the seats index and the cached
    # active roles, never a state.
    "games_awaiting": (
        "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id"
        " WHERE s.user_id = ? AND g.status = 'active' AND g.damaged IS NULL"
        # active_roles is a JSON list of names: a quoted role inside it (portable SQL).
        " AND g.active_roles LIKE '%\"' || s.role || '\"%'",
        ("u",),
    ),
    "seats": ("SELECT * FROM seats WHERE game_id = ? ORDER BY joined_at, role", (1,)),
    "actions": ("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (1,)),
    "undelivered_of_game": (
        _UNDELIVERED + " AND o.game_id = ? ORDER BY o.id",
        (1,),
    ),
    "undelivered": (_UNDELIVERED + " ORDER BY o.id", ()),
    "table_parked": (
        "SELECT 1 FROM outbox WHERE delivered_at IS NULL AND game_id = ? AND kind = 'table'"
        f" AND last_error LIKE '{PARKED_ERROR}%' LIMIT 1",
        (1,),
    ),
    "games_with_undelivered": (
        "SELECT DISTINCT game_id FROM outbox WHERE delivered_at IS NULL ORDER BY game_id",
        (),
    ),
    # The oldest delivered rows past the retention, a batch at a time (migration 0022).
    "delivered_before": (
        "SELECT id FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?"
        " ORDER BY delivered_at LIMIT ?",
        (0.0, 500),
    ),
    "due_timers": ("SELECT * FROM timers WHERE due_at <= ? ORDER BY due_at, id", (0.0,)),
    "timers": ("SELECT * FROM timers WHERE game_id = ? ORDER BY id", (1,)),
    "reminder_hours": (
        "SELECT reminder_hours FROM channel_settings WHERE channel_id = ?",
        ("c",),
    ),
    "result": ("SELECT * FROM results WHERE game_id = ?", (1,)),
    "live_prompts": ("SELECT * FROM live_prompts WHERE game_id = ?", (1,)),
}


# -- ratings (migration 0012) ---------------------------------
#: The ratings' queries, held to an index like the hot queries above.
RATING_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "leaderboard": (
        "SELECT * FROM ratings WHERE scope = ? AND game_name = ?"
        " ORDER BY points DESC, player_id LIMIT ?",
        ("g", "toy", 10),
    ),
    "ratings_of": (
        "SELECT * FROM ratings WHERE scope = ? AND game_name = ? AND player_id = ?",
        ("g", "toy", "u"),
    ),
    "rating_changes": (
        "SELECT * FROM rating_changes WHERE game_id = ? ORDER BY role, player_id",
        (1,),
    ),
    "decisions_by_role": (
        "SELECT role, COUNT(*) AS n FROM actions WHERE game_id = ? AND verb != 'undo'"
        " GROUP BY role",
        (1,),
    ),
    "decisions_by_holder": (
        "SELECT role, user_id, COUNT(*) AS n FROM actions WHERE game_id = ? AND verb != 'undo'"
        " GROUP BY role, user_id",
        (1,),
    ),
    "hints_used": ("SELECT COALESCE(SUM(count), 0) AS n FROM hints WHERE game_id = ?", (1,)),
    "bot_estimates": ("SELECT * FROM bot_estimates WHERE game_id = ? ORDER BY version", (1,)),
}


HOT_QUERIES.update(RATING_QUERIES)


# -- end of ratings -----------------------------------------------------------------

# -- clocks (migration 0014_clocks) --------------------------
#: The clocks' queries, held to an index like the hot queries above: the expiry pass
#: reads only the running clocks whose deadline has passed, from ``clocks_deadline``.
CLOCK_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "expired_clocks": (
        "SELECT game_id, role, deadline FROM clocks"
        " WHERE deadline IS NOT NULL AND deadline <= ? ORDER BY deadline LIMIT ?",
        (0.0, 100),
    ),
    "clock_rows": ("SELECT * FROM clocks WHERE game_id = ? ORDER BY role", (1,)),
    "game_clock": ("SELECT * FROM game_clocks WHERE game_id = ?", (1,)),
    # The warnings pass (24 h and 2 h left), from its own partial index.
    "due_clock_warnings": (
        "SELECT game_id, role FROM clocks"
        " WHERE warn_at IS NOT NULL AND warn_at <= ? ORDER BY warn_at LIMIT ?",
        (0.0, 100),
    ),
    # Start-up, after downtime: the running clocks alone, from the same partial index.
    # Those running since before the last heartbeat move on by the whole downtime...
    "shift_running_clocks": (
        "UPDATE clocks SET running_since = running_since + ?, deadline = deadline + ?,"
        " warn_at = warn_at + ? WHERE deadline IS NOT NULL AND running_since <= ?",
        (0.0, 0.0, 0.0, 0.0),
    ),
    # ...those that started during it (a vacation that ended while the bot was down) by
    # the part they ran; a clock still paused (its start to come) spent nothing.
    "shift_clocks_started_while_down": (
        "UPDATE clocks SET deadline = deadline + (? - running_since),"
        " warn_at = warn_at + (? - running_since), running_since = ?"
        " WHERE deadline IS NOT NULL AND running_since > ? AND running_since < ?",
        (0.0, 0.0, 0.0, 0.0, 0.0),
    ),
}


HOT_QUERIES.update(CLOCK_QUERIES)


# -- end of clocks ------------------------------------------------------------------
# -- vacations and claims on time (migration 0016) ------------
#: Held to an index like the hot queries above: a player's vacations come from the
#: primary key (user, scope, start), the games whose clocks they pause from the seats'
#: index, never from a scan of live games.
VACATION_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "clock_rules": ("SELECT * FROM clock_rules WHERE guild_id = ?", ("g",)),
    "vacation_days_used": (
        "SELECT COALESCE(SUM(days), 0) AS n FROM vacations"
        " WHERE user_id = ? AND scope = ? AND starts_at > ?",
        ("u", "g", 0.0),
    ),
    "current_vacation": (
        "SELECT * FROM vacations WHERE user_id = ? AND scope = ? AND ends_at > ?"
        " ORDER BY starts_at DESC LIMIT 1",
        ("u", "g", 0.0),
    ),
    "vacations_back_due": (
        "SELECT * FROM vacations WHERE back_due = 1 AND ends_at <= ? ORDER BY ends_at LIMIT 50",
        (0.0,),
    ),
    "clocked_seats_of": (
        "SELECT c.game_id, c.role FROM seats s JOIN games g ON g.id = s.game_id"
        " JOIN clocks c ON c.game_id = s.game_id AND c.role = s.role"
        " WHERE s.user_id = ? AND g.status = 'active' AND COALESCE(g.guild_id, '') = ?"
        " ORDER BY c.game_id, c.role",
        ("u", "g"),
    ),
}


HOT_QUERIES.update(VACATION_QUERIES)


# -- end of vacations and claims on time ------------------------------------------
# -- seats that change hands (migration 0013) -----------------
SEAT_QUERIES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "seat_changes": ("SELECT * FROM seat_changes WHERE game_id = ? ORDER BY id", (1,)),
    "seat_passed": (
        "SELECT * FROM seat_changes WHERE game_id = ? AND from_user = ? ORDER BY id DESC LIMIT 1",
        (1, "u"),
    ),
    "seat_offer": ("SELECT * FROM seat_offers WHERE id = ?", (1,)),
    "open_seat_offers": (
        "SELECT * FROM seat_offers WHERE game_id = ? AND status = 'open' ORDER BY id",
        (1,),
    ),
}


HOT_QUERIES.update(SEAT_QUERIES)


# -- end of seats that change hands ---------------------------------------------------


def hot_sql(name: str) -> str:
    """The statement ``name`` of :data:`HOT_QUERIES`: how a session runs a listed query,
    so that what the plan tests explain is what the store sends."""
    return HOT_QUERIES[name][0]
