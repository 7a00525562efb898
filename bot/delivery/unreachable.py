"""What the players are told when the game's channel refuses the table's posts: the one
cause Discord returned (the channel deleted, no View Channel, a permission missing, the
thread locked or archived) and what fixes that cause; every cause only when the front end
could not tell which (``bot.errors.TableUnreachable``)."""

from __future__ import annotations

from bot import errors

#: Every cause, for a refusal whose cause is not known.
ANY_CAUSE = (
    "it was deleted, or I lack View Channel, Send Messages (in a thread: Send Messages in "
    "Threads), Embed Links or Attach Files there (or a moderator locked its thread)"
)

#: Each cause as the notice says it.
CAUSES = {
    errors.CHANNEL_DELETED: "Discord says the channel no longer exists (it was deleted)",
    errors.NO_ACCESS: "Discord says I have no access to it (I lack View Channel there)",
    errors.THREAD_LOCKED: "a moderator locked its thread",
    errors.THREAD_ARCHIVED: "its thread is archived and I could not reopen it",
}

#: What makes the channel take posts again, per cause.
FIXES = {
    errors.NO_ACCESS: "Once a moderator gives me View Channel there",
    errors.NO_PERMISSION: "Once a moderator grants it there",
    errors.THREAD_LOCKED: "Once a moderator unlocks the thread",
    errors.THREAD_ARCHIVED: "Once someone who may post there reopens the thread",
}


def missing_permission(missing: tuple[str, ...]) -> str:
    """Discord's Missing Permissions, naming what the front end found lacking."""
    if not missing:
        return (
            "Discord says I lack a permission there (Send Messages, in a thread Send "
            "Messages in Threads, Embed Links or Attach Files)"
        )
    listed = ", ".join(missing)
    return f"Discord says I lack a permission there: {listed}"


def why(cause: str, missing: tuple[str, ...] = ()) -> str:
    """Why the table is silent, in the words of the notice."""
    if cause == errors.NO_PERMISSION:
        return missing_permission(missing)
    return CAUSES.get(cause, ANY_CAUSE)


def how_to_resume(cause: str, game_id: int) -> str:
    """What a moderator or a player can do: fix the channel where it can be fixed (then
    /game status there sends what waited), or move the game elsewhere."""
    move = (
        f"a player or a moderator can use /game move game:{game_id} channel:<another> to "
        "play on in another channel or thread, where the board is posted again."
    )
    if cause == errors.CHANNEL_DELETED:
        return move[0].upper() + move[1:]
    fix = FIXES.get(cause, "Once a moderator fixes the channel")
    return f"{fix}, use /game status there and the waiting posts go out; or {move}"
