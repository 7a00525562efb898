"""CDG Solo System sessions at the table: choosing a playsheet, side and scenario, and the
card lists a group imports for a game without a public one. No discord import: the
Discord cog and the terminal sandbox both use these.

A solo session is an ordinary one-seat game (``rules.solo``): it is opened with
``GameManager.create_game`` and stored, undone and delivered like any other.
"""

from __future__ import annotations

from typing import Any

from bot import errors
from bot.storage.store import Store
from bot.tables import card_csv, validate
from rules.core import IllegalAction
from rules.solo import cards
from rules.solo.sheets import SHEETS, sheet

GAME_NAME = "solo"
#: A card list larger than this is refused before it is parsed (Discord attachments can
#: be large; the biggest host deck has about 130 cards).
MAX_CSV_BYTES = card_csv.MAX_BYTES


def playsheets() -> list[tuple[str, str]]:
    """(name, title) of every playsheet, in the order of the rules text."""
    return [(name, str(sheet(name)["title"])) for name in SHEETS]


def sides(playsheet: str) -> list[tuple[str, str]]:
    """(side, its name) of a playsheet; empty for an unknown one."""
    if playsheet not in SHEETS:
        return []
    data = sheet(playsheet)
    return [(s, str(data["side_names"][s])) for s in data["sides"]]


def scenarios(playsheet: str) -> list[str]:
    if playsheet not in SHEETS:
        return []
    return list(sheet(playsheet).get("scenarios", {}))


def side_ids(playsheet: str) -> list[str]:
    """The ids of a playsheet's sides (``sides`` without their names)."""
    return [side for side, _name in sides(playsheet)]


def has_card_list(playsheet: str) -> bool:
    """Does Dispatch know every card of this game itself (Paths of Glory)?"""
    return playsheet in SHEETS and cards.managed(sheet(playsheet))


def session_options(playsheet: str, side: str | None, scenario: str | None) -> dict[str, Any]:
    """The options of a new session, each value checked with a polite word if it is wrong."""
    playsheet = (playsheet or "").strip().lower()
    if playsheet not in SHEETS:
        known = ", ".join(SHEETS)
        raise errors.NotInPlaysheet(
            f"There is no playsheet “{playsheet[:40]}”; choose one of {known}."
        )
    side = (side or "").strip().lower()
    if side in ("both", "all"):
        side = ""
    names = side_ids(playsheet)
    if side and side not in names:
        raise errors.NotInPlaysheet(
            f"{sheet(playsheet)['title']} has the sides {', '.join(names)} "
            f"(or leave it empty for both), not “{side[:40]}”."
        )
    scenario = (scenario or "").strip().lower()
    known_scenarios = scenarios(playsheet)
    if scenario and scenario not in known_scenarios:
        listed = ", ".join(known_scenarios) or "none"
        raise errors.NotInPlaysheet(
            f"{sheet(playsheet)['title']} has no scenario “{scenario[:40]}” (scenarios: {listed})."
        )
    options: dict[str, Any] = {"playsheet": playsheet, "side": side}
    if scenario:
        options["scenario"] = scenario
    return options


#: Options named by a field of their own (``/solo new``) or a word of their own (the
#: sandbox), never as ``key=value``: the card list is the one imported, not typed.
OWN_FIELDS = ("playsheet", "side", "scenario", "card_list")


def extra_options(text: str | None) -> dict[str, Any]:
    """The further options of a session typed as ``key=value, ...`` (deck_size,
    blue_hand/red_hand, eight_card_hands, guns_of_august, offensive): one reading for
    ``/solo new options:`` and the sandbox's ``new solo``; the game checks the values."""
    typed = validate.parse_options(text)
    for key in OWN_FIELDS:
        if key in typed:
            raise errors.BadOptions(f"set {key} with its own field, not in options")
    return validate.options(typed)


def which_playsheet() -> str:
    """The answer to ``new solo`` without a playsheet (sandbox): the list to choose from."""
    listed = "\n".join(f"· {name} — {title}" for name, title in playsheets())
    return f"Which playsheet? `{SANDBOX_USAGE}`, one of:\n{listed}"


SANDBOX_USAGE = "new solo <playsheet> [side] [scenario] [seed] [option=value ...]"


def options_from_words(words: list[str]) -> tuple[dict[str, Any], int | None]:
    """``paths_of_glory central_powers [scenario] [seed] [deck_size=90 ...]`` as options and
    a seed (sandbox); the ``key=value`` words are read as ``/solo new options:`` is."""
    playsheet, side, scenario, seed = "", "", "", None
    typed = [word for word in words if "=" in word]
    for word in (w for w in words if "=" not in w):
        low = word.lower()
        if low.isascii() and low.isdigit():
            seed = int(low)
        elif not playsheet and low in SHEETS:
            playsheet = low
        elif playsheet and low in [*side_ids(playsheet), "both"]:
            side = low
        elif playsheet and low in scenarios(playsheet):
            scenario = low
        else:
            raise errors.NotInPlaysheet(_unknown_word(word, playsheet))
    if not playsheet:
        # Asked, not guessed: a session of a game the player does not own helps nobody.
        raise errors.NotInPlaysheet(which_playsheet())
    options = session_options(playsheet, side, scenario)
    options.update(extra_options(", ".join(typed)))
    return options, seed


def _unknown_word(word: str, playsheet: str) -> str:
    """Why ``word`` fits nowhere in ``new solo ...``, and what would: a side or scenario
    of some playsheet is named with its playsheet, in the order the command takes."""
    if playsheet:
        title = sheet(playsheet)["title"]
        names = ", ".join(side_ids(playsheet))
        listed = ", ".join(scenarios(playsheet))
        return (
            f"“{word[:40]}” is not a side, scenario or seed of {title} "
            f"(sides: {names}{f'; scenarios: {listed}' if listed else ''})."
        )
    low = word.lower()
    owners = [
        (name, what)
        for name in SHEETS
        for what, names in (("side", side_ids(name)), ("scenario", scenarios(name)))
        if low in names
    ]
    if owners:
        name, what = owners[0]
        titles = " and ".join(sheet(n)["title"] for n, _w in owners)
        return (
            f"“{word[:40]}” is a {what} of {titles}: name the playsheet first, "
            f"as in `new solo {name} {low}`."
        )
    return (
        f"“{word[:40]}” is not a playsheet, side, scenario or seed. "
        f"Playsheets: {', '.join(SHEETS)}."
    )


def scope_of(guild_id: str | None, user_id: str) -> str:
    """Where an imported card list applies: the server, or the user's own DMs. A server's
    list is shared by every session there, so only members who may manage the server
    import, replace or delete it (the Discord cog checks); in DMs the list is the user's."""
    return str(guild_id) if guild_id else f"dm:{user_id}"


def check_card_list(playsheet: str, text: str) -> tuple[str, int]:
    """A CSV card list for ``playsheet`` read strictly (``card_csv``): the text as it is
    kept and its number of cards, or a polite refusal naming the line."""
    if playsheet not in SHEETS:
        raise errors.NotInPlaysheet(f"There is no playsheet “{playsheet[:40]}”.")
    data = sheet(playsheet)
    if has_card_list(playsheet):
        raise errors.NotAllowed(
            f"{data['title']} needs no card list: Dispatch knows all its cards."
        )
    sides = list(data["sides"]) if data["deck"] == "dual" else []
    try:
        clean, count = card_csv.clean_text(text, list(data["kinds"]), sides)
        cards.parse_card_list(clean, data)  # the engine reads it as a session will
    except (errors.BadInput, IllegalAction) as exc:
        raise errors.CardListRefused(f"The card list was not imported: {exc}") from None
    return clean, count


async def import_card_list(
    store: Store, scope: str, playsheet: str, text: str, user_id: str
) -> int:
    """Check and keep a card list for new sessions of ``playsheet`` in ``scope``, in place
    of the one kept before; nothing is kept if a single line is wrong. Returns the number
    of cards."""
    clean, count = check_card_list(playsheet, text)
    async with store.transaction() as db:
        await db.settings.set_solo_card_list(scope, playsheet, clean, count, user_id)
    return count


async def delete_card_list(store: Store, scope: str, playsheet: str) -> bool:
    """Forget the card list of ``playsheet`` in ``scope`` (False: there was none). Running
    sessions keep theirs: a game holds its own copy, so its replay never changes."""
    async with store.transaction() as db:
        return await db.settings.delete_solo_card_list(scope, playsheet)


async def card_list_for(store: Store, scope: str, playsheet: str) -> str:
    """The CSV a new session of ``playsheet`` starts with ("" when none was imported). A
    list kept before lists were read strictly, and wrong by today's reading, is refused
    here with what to do, rather than by the manager with a line number out of context."""
    async with store.read() as db:
        found = await db.settings.solo_card_list(scope, playsheet)
    if not found:
        return ""
    try:
        clean, _count = check_card_list(playsheet, found[0])
    except errors.BadInput as exc:
        why = str(exc).removeprefix("The card list was not imported: ")
        raise errors.CardListRefused(
            f"The card list imported here for {sheet(playsheet)['title']} does not pass "
            f"the checks any more ({why}). Import a corrected list, or delete it with "
            "/solo cards delete; nothing was started."
        ) from None
    return clean
