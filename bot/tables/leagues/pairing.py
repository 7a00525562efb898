"""The next round of a league, from its stored entrants, results and byes, by the pure
core of its format (``round_robin``, ``swiss``, ``elimination``).

A round robin's schedule is the circle method over every entrant in entry order, so it is
the same schedule each time it is worked out: a withdrawn player's games stay in it, and
are forfeits (``forfeit_of``). An elimination's bracket is worked out again from its first
stage: its seeds are the entry places, which ``seed_places`` sets at the start from the
ratings, so a replaced player keeps their place in the bracket whatever their name; each
stage is worked out from the results of the rounds before it, as it was paired."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.league_rows import LeagueEntrantRow, LeagueGameRow, LeagueRow
from bot.tables.leagues import elimination
from bot.tables.leagues.entrants import Entrant, Outcome, Pairing, PlayerId, Round
from bot.tables.leagues.reading import core_byes, core_entrants, core_results
from bot.tables.leagues.round_robin import round_robin
from bot.tables.leagues.swiss import swiss_round


def seed_places(entrants: Sequence[LeagueEntrantRow]) -> list[PlayerId]:
    """The seeds of an elimination, best first: by rating at entry, then by name."""
    return list(elimination.seeds(core_entrants(entrants)))


def next_round(
    league: LeagueRow,
    entrants: Sequence[LeagueEntrantRow],
    games: Sequence[LeagueGameRow],
    byes: Sequence[tuple[int, str]],
    number: int,
) -> Round | None:
    """Round ``number`` of the league; ``None`` when the league is over."""
    if league.format in ("round_robin", "double_round_robin"):
        schedule = round_robin(_in_place_order(entrants), double=league.format != "round_robin")
        return schedule[number - 1] if number <= len(schedule) else None
    if league.format == "swiss":
        field = core_entrants(entrants)
        playing = [e for e in field if not e.withdrawn]
        if number > (league.rounds or 0) or len(playing) < 2:
            return None
        return swiss_round(field, core_results(games), core_byes(byes), number)
    return _elimination_round(league, entrants, games, number)


def _in_place_order(entrants: Sequence[LeagueEntrantRow]) -> list[Entrant]:
    """Every entrant in entry order, withdrawn or not: the schedule never changes."""
    return [Entrant(e.player, e.rating) for e in sorted(entrants, key=lambda e: e.place)]


def _elimination_round(
    league: LeagueRow,
    entrants: Sequence[LeagueEntrantRow],
    games: Sequence[LeagueGameRow],
    number: int,
) -> Round | None:
    ordered = sorted(entrants, key=lambda e: e.place)
    # Ratings that order the seeds as the places do (set from the ratings at the start).
    seeded = [Entrant(e.player, float(len(ordered) - i)) for i, e in enumerate(ordered)]
    seeds = [e.player for e in seeded]
    results = core_results(games)
    stage: elimination.Stage | None = elimination.first_stage(seeded, league.games_per_tie)
    for played in range(1, number):
        assert stage is not None
        # As it was paired: from the results of the rounds before it (the sides follow them).
        known = {r.pairing: r.outcome for r in results if r.pairing.round <= played}
        stage = elimination.next_stage(stage, known, seeds, league.games_per_tie)
        if stage is None:
            return None
    assert stage is not None
    pairings = tuple(game for tie in stage.ties for game in tie.games)
    stage_byes = tuple(tie.high for tie in stage.ties if tie.low is None)
    return Round(number, pairings, stage_byes)


def forfeit_of(pairing: Pairing, status: dict[PlayerId, str]) -> Outcome | None:
    """The result of a pairing with a player no longer in (withdrawn or disqualified),
    written as it is paired; ``None`` for a game to play."""
    if status.get(pairing.first, "in") != "in":
        return Outcome.FIRST_FORFEITS
    if status.get(pairing.second, "in") != "in":
        return Outcome.SECOND_FORFEITS
    return None
